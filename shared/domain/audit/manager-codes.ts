/**
 * Per-staff manager codes (docs/merchant-api.md, "Manager codes"; docs/security.md): each owner or manager sets their
 * own code, which then approves refunds, detached refunds, credit grants and gift card removals as them. A code is
 * stored only as its keyed digest (SHA-256 of the merchant and the code) and is the key of its item, so a refund finds
 * the code's holder with one GetItem, and two staff members of a merchant cannot hold the same code (the item's
 * `putNew` refuses the second). No route answers a code, and its audit entry says "set", never the code.
 */
import { equals, itemExists, versionIs } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { LabelledItems, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { sha256 } from '#shared/auth/secrets.ts';
import type { StaffActor, StaffRole } from '#shared/auth/roles.ts';
import { conflict, unprocessable } from '#shared/errors.ts';
import { Merchant } from '#shared/domain/merchants/merchants.ts';
import { MANAGER_CODE_PATTERN } from '#shared/schemas/audit.ts';
import { isoSeconds } from '#shared/time.ts';
import { auditEntry, type AuditContext } from './audit-log.ts';

/** The holder of one code at a merchant, keyed by the code's digest. */
export const ManagerCode = defineEntity<{ merchant_id: number; staff_id: number; role: StaffRole; set_at: string }>()({
  entity: 'ManagerCode',
  key: keys.managerCode,
});

/** Which code a staff member holds (by digest), so a new one replaces it. */
export const StaffManagerCode = defineEntity<{ merchant_id: number; staff_id: number; code_digest: string; version: number; set_at: string }>()({
  entity: 'StaffManagerCode',
  key: keys.staffManagerCode,
});

/**
 * The code's digest, salted by its merchant (the same code at two merchants is two digests). Deterministic, as the
 * lookup by code needs: an attacker holding the table can still try every 4-8 digit code offline, which is why the
 * codes only matter online, behind the per-order and per-merchant attempt windows (docs/security.md).
 */
export function managerCodeDigest(merchantId: number, code: string): string {
  return sha256(`manager-code:${merchantId}:${code}`);
}

const TAKEN = () => unprocessable('manager_code', 'code', 'This code cannot be used; choose another one.', 'taken');
const BUSY = () => conflict('The manager code is being changed by another request; retry shortly.', 1, 'manager_code', 'in_progress');

/**
 * Sets the acting staff member's own code: the code's item (refused when another staff member holds it), the old
 * code's item removed, the staff member's pointer moved (guarded by its version), the merchant marked as having staff
 * codes (its first), and the audit entry, in one transaction. Setting the code one already holds changes nothing.
 */
export async function setManagerCode(actor: StaffActor, code: string, context: AuditContext, storeResponse?: () => TransactItem | undefined): Promise<void> {
  const digest = managerCodeDigest(actor.merchantId, code);
  const [holderItem, pointerItem, merchantItem] = await readItems(
    [keys.managerCode(actor.merchantId, digest), keys.staffManagerCode(actor.merchantId, actor.staffId), keys.merchant(actor.merchantId)],
    { consistent: true },
  );
  const holder = ManagerCode.from(holderItem);
  const pointer = StaffManagerCode.from(pointerItem);
  if (holder && holder.staff_id !== actor.staffId) throw TAKEN();
  if (holder && pointer?.code_digest === digest) return;
  const now = isoSeconds();
  const batch = new LabelledItems();
  batch.add('code', ManagerCode.at(actor.merchantId, digest).putNew({ merchant_id: actor.merchantId, staff_id: actor.staffId, role: actor.role, set_at: now }));
  if (pointer && pointer.code_digest !== digest) {
    batch.add('old_code', ManagerCode.at(actor.merchantId, pointer.code_digest).delete(equals('staff_id', actor.staffId)));
  }
  const version = pointer?.version ?? 0;
  batch.add(
    'pointer',
    StaffManagerCode.at(actor.merchantId, actor.staffId).put(
      { merchant_id: actor.merchantId, staff_id: actor.staffId, code_digest: digest, version: version + 1, set_at: now },
      versionIs(version),
    ),
  );
  // The merchant's first staff code turns codes on for its refunds; later ones leave the merchant item alone.
  if (!Merchant.from(merchantItem)?.staff_manager_codes)
    batch.add('merchant', Merchant.at(actor.merchantId).update({ set: { staff_manager_codes: true } }, itemExists));
  batch.add(
    'audit',
    auditEntry(context, {
      merchantId: actor.merchantId,
      action: 'staff.manager_code_set',
      object: { type: 'staff', id: actor.staffId },
      after: { status: 'set' },
    }),
  );
  const stored = storeResponse?.();
  if (stored) batch.add('idempotency', stored);
  const outcome = await transactWrite(() => batch.items);
  if (outcome.committed) return;
  const failed = batch.failedLabels(outcome.reasons);
  // Another staff member took the code between the read and the write.
  if (failed.has('code')) throw TAKEN();
  throw BUSY();
}

/**
 * The staff member holding `code` at the merchant (one consistent GetItem by its digest), or undefined. Only the
 * manager confirmation checks call it, inside their attempt windows.
 */
export async function managerCodeHolder(merchantId: number, code: string | null | undefined): Promise<number | undefined> {
  if (!code || !MANAGER_CODE_PATTERN.test(code)) return undefined;
  const holder = await ManagerCode.at(merchantId, managerCodeDigest(merchantId, code)).get({ consistent: true });
  return holder?.merchant_id === merchantId ? holder.staff_id : undefined;
}

/**
 * The items that take a staff member's code away (their removal or downgrade to staff, in that change's transaction):
 * the code's item and the pointer. Empty when they hold none.
 */
export async function managerCodeRemovalItems(merchantId: number, staffId: number): Promise<TransactItem[]> {
  return managerCodeRemovalItemsOf(merchantId, staffId, await StaffManagerCode.at(merchantId, staffId).get({ consistent: true }));
}

/** managerCodeRemovalItems for a caller that read the staff member's pointer (`keys.staffManagerCode`) in its own batch. */
export function managerCodeRemovalItemsOf(merchantId: number, staffId: number, pointer: ReturnType<typeof StaffManagerCode.from>): TransactItem[] {
  if (!pointer) return [];
  return [
    ManagerCode.at(merchantId, pointer.code_digest).delete(equals('staff_id', staffId)),
    StaffManagerCode.at(merchantId, staffId).delete(versionIs(pointer.version)),
  ];
}

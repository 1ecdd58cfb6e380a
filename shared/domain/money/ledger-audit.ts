/**
 * The operators' whole-table tools of the double-entry ledger (ledger.ts): the audit (every stored balance
 * equals its entries, every transfer has two legs that cancel, all legs sum to zero, every user-side value came
 * from the source its kind names) and the migration of entries written before the ledger was double-entry.
 * Full scans: `npm run admin -- audit` / `ledger-migrate` and tests, never a request path.
 */
import { table } from '#shared/db/client.ts';
import { and, attributeMissing, itemExists } from '#shared/db/conditions.ts';
import { scanAll } from '#shared/db/reads.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { GiftCardValueOrderRecord } from '#shared/domain/money/entities.ts';
import { isoSeconds } from '#shared/time.ts';
import {
  CONTRA,
  CONTRA_ENTRY,
  contraLegItem,
  contraRefusal,
  isUserAccount,
  LedgerEntry,
  mayGoNegative,
  parseAccount,
  purchasesAccountKey,
  transferId,
  type LedgerKind,
} from '#shared/domain/money/accounts.ts';

/** A stored balance that is not the sum of its entries (or their count, or is negative where it may not be). */
export interface BalanceMismatch {
  account: string;
  balance: number;
  ledgerSum: number;
  version: number;
  entryCount: number;
  problem: 'sum' | 'version' | 'negative';
}

/**
 * A transfer that does not balance: a leg without its other leg (`one_legged`: written before the ledger was
 * double-entry, `npm run admin -- ledger-migrate` adds it), legs that do not cancel (`unbalanced`), or a
 * user-side leg whose value came from an account its kind may not take it from (`source`).
 */
export interface TransferMismatch {
  transferId: string | null;
  account: string;
  entryId: string;
  kind: string;
  legs: number;
  legSum: number;
  problem: 'one_legged' | 'unbalanced' | 'source';
  detail?: string;
}

export type AuditMismatch = BalanceMismatch | TransferMismatch;

export interface AuditReport {
  accounts: number;
  entries: number;
  transfers: number;
  /** Sum of every leg of every account: 0 in a balanced ledger. */
  total: number;
  /** The platform accounts' balances, derived from their legs (a source is negative: what it put in). */
  platform: Record<string, number>;
  mismatches: AuditMismatch[];
}

interface Leg {
  account: string;
  contra: string | undefined;
  transferId: string | undefined;
  entryId: string;
  kind: string;
  amount: number;
}

/** Every leg of one transfer balances the other, and a user-side leg's value came from where its kind allows. */
function transferMismatches(legs: Leg[]): TransferMismatch[] {
  const byTransfer = new Map<string, Leg[]>();
  const mismatches: TransferMismatch[] = [];
  for (const leg of legs) {
    if (leg.transferId === undefined) {
      mismatches.push({ transferId: null, account: leg.account, entryId: leg.entryId, kind: leg.kind, legs: 1, legSum: leg.amount, problem: 'one_legged' });
      continue;
    }
    byTransfer.set(leg.transferId, [...(byTransfer.get(leg.transferId) ?? []), leg]);
  }
  for (const [id, group] of byTransfer) {
    const [first] = group as [Leg];
    const legSum = group.reduce((sum, leg) => sum + leg.amount, 0);
    const facts = { transferId: id, account: first.account, entryId: first.entryId, kind: first.kind, legs: group.length, legSum };
    const paired = group.length === 2 && group[0]!.contra === group[1]!.account && group[1]!.contra === group[0]!.account && group[0]!.kind === group[1]!.kind;
    if (!paired) {
      mismatches.push({ ...facts, problem: group.length === 1 ? 'one_legged' : 'unbalanced' });
      continue;
    }
    if (legSum !== 0) {
      mismatches.push({ ...facts, problem: 'unbalanced' });
      continue;
    }
    for (const leg of group.filter((candidate) => isUserAccount(candidate.account))) {
      const known = Object.hasOwn(CONTRA, leg.kind);
      const refusal = known ? contraRefusal(leg.kind as LedgerKind, leg.account, leg.contra!) : `unknown kind ${leg.kind}`;
      if (refusal) mismatches.push({ ...facts, account: leg.account, problem: 'source', detail: refusal });
    }
  }
  return mismatches;
}

/**
 * Recomputes every balance from the ledger and checks it is balanced (a full scan: an operator's tool, not a
 * request path): stored balances equal their entries, every transfer has two legs that cancel, the sum of all
 * legs is zero, and every user-side value came from the source its kind names.
 */
export async function auditLedger(): Promise<AuditReport> {
  const balances = new Map<string, { balance: number; version: number }>();
  const sums = new Map<string, { sum: number; count: number }>();
  const platform: Record<string, number> = {};
  const legs: Leg[] = [];
  let entries = 0;
  const items = await scanAll({
    TableName: table(),
    FilterExpression: 'entity IN (:balance, :entry, :contra)',
    ExpressionAttributeValues: { ':balance': 'Balance', ':entry': 'LedgerEntry', ':contra': CONTRA_ENTRY },
    ConsistentRead: true,
  });
  for (const item of items) {
    const account = String(item.account);
    if (item.entity === 'Balance') {
      balances.set(account, { balance: Number(item.balance ?? 0), version: Number(item.version ?? 0) });
      continue;
    }
    const amount = Number(item.amount);
    legs.push({
      account,
      contra: item.contra_account as string | undefined,
      transferId: item.transfer_id as string | undefined,
      entryId: String(item.entry_id),
      kind: String(item.kind),
      amount,
    });
    if (item.entity === CONTRA_ENTRY) {
      platform[account] = (platform[account] ?? 0) + amount;
      continue;
    }
    entries += 1;
    const current = sums.get(account) ?? { sum: 0, count: 0 };
    sums.set(account, { sum: current.sum + amount, count: current.count + 1 });
  }

  const mismatches: AuditMismatch[] = [];
  for (const account of new Set([...balances.keys(), ...sums.keys()])) {
    const { balance, version } = balances.get(account) ?? { balance: 0, version: 0 };
    const { sum, count } = sums.get(account) ?? { sum: 0, count: 0 };
    const facts = { account, balance, ledgerSum: sum, version, entryCount: count };
    if (balance !== sum) mismatches.push({ ...facts, problem: 'sum' });
    else if (version !== count) mismatches.push({ ...facts, problem: 'version' });
    else if (balance < 0 && !mayGoNegative(account)) mismatches.push({ ...facts, problem: 'negative' });
  }
  mismatches.push(...transferMismatches(legs));
  const transfers = new Set(legs.flatMap((leg) => (leg.transferId === undefined ? [] : [leg.transferId]))).size;
  const total = legs.reduce((sum, leg) => sum + leg.amount, 0);
  return { accounts: balances.size, entries, transfers, total, platform, mismatches };
}

export interface LedgerMigration {
  /** One-legged entries found (written before the ledger was double-entry). */
  found: number;
  /** Entries given their transfer (and, for a platform account, its leg) by this run. */
  migrated: number;
  /** Entries a concurrent run migrated first, or whose other account could not be named. */
  skipped: Array<{ account: string; entryId: string; reason: string }>;
}

/** The other account of an entry written the old way: CONTRA's, except a gift card order's load (its buyer). */
async function legacyContra(account: string, item: Record<string, any>): Promise<string | undefined> {
  const kind = item.kind as LedgerKind;
  if (!Object.hasOwn(CONTRA, kind)) return undefined;
  const orderUuid = item.reference?.gift_card_value_order_uuid;
  if (kind === 'gift_card_load' && typeof orderUuid === 'string') {
    const order = await GiftCardValueOrderRecord.at(orderUuid).get({ consistent: true });
    if (!order) return undefined;
    return purchasesAccountKey(order.buyer_user_id, parseAccount(account).merchantId);
  }
  return CONTRA[kind](parseAccount(account));
}

/**
 * Gives every entry written before the ledger was double-entry its transfer: the transfer id and other
 * account on the entry, and the platform account's leg, in one transaction each (the entry's update is
 * guarded by attribute_not_exists(transfer_id), the leg by its natural key), so a second run, or two at
 * once, change nothing. Balances are untouched: the entries already sum to them.
 */
export async function migrateLedger(): Promise<LedgerMigration> {
  const items = await scanAll({
    TableName: table(),
    FilterExpression: 'entity = :entry AND attribute_not_exists(transfer_id)',
    ExpressionAttributeValues: { ':entry': 'LedgerEntry' },
    ConsistentRead: true,
  });
  const report: LedgerMigration = { found: items.length, migrated: 0, skipped: [] };
  for (const item of items) {
    const account = String(item.account);
    const entryId = String(item.entry_id);
    const contra = await legacyContra(account, item);
    if (contra === undefined) {
      report.skipped.push({ account, entryId, reason: `no other account for ${String(item.kind)}` });
      continue;
    }
    const update = LedgerEntry.at(account, entryId).update(
      { set: { contra_account: contra, transfer_id: transferId(account, contra, entryId) } },
      and(itemExists, attributeMissing('transfer_id')),
    );
    const leg = contraLegItem({
      account,
      contra,
      kind: item.kind as LedgerKind,
      amount: Number(item.amount),
      entryId,
      reference: item.reference,
      now: String(item.created_at ?? isoSeconds()),
    });
    const outcome = await transactWrite(() => (leg ? [update, leg] : [update]));
    if (outcome.committed) report.migrated += 1;
    else report.skipped.push({ account, entryId, reason: `already migrated (${outcome.reasons.join(',')})` });
  }
  return report;
}

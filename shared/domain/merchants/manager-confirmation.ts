/**
 * Manager confirmation: a code that staff must type to refund (docs/money.md, "Refunds"): the merchant's shared code,
 * or an owner's or manager's own code (audit/manager-codes.ts), which also names who approved (docs/merchant-api.md,
 * "Manager codes"). A request made with an owner's or manager's own token is approved by them, with no code, except
 * the management refund at a merchant that requires codes: there they type their own code (`ownCode`).
 * A short code is guessable online, so (docs/security.md) every attempt is counted before it is compared,
 * per order and per merchant (rate-limits.ts), and a full window answers 429 with Retry-After, even for the
 * right code, until it ends; the comparison is constant-time over equal-length digests.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { rateLimited, unprocessable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { Merchant } from './merchants.ts';
import type { AuditActor } from '#shared/domain/audit/audit-log.ts';
import { managerCodeDigest, managerCodeHolder, StaffManagerCode } from '#shared/domain/audit/manager-codes.ts';
import { MANAGER_CODE_MERCHANT_FAILURES, MANAGER_CODE_ORDER_FAILURES, release, reserve, type WindowLimit } from '#shared/domain/rate-limits.ts';

/** Equal-length SHA-256 digests compared with timingSafeEqual: neither the code's length nor its prefix leaks through timing. */
export function codesMatch(expected: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

export interface ManagerConfirmationCheck {
  /** The merchant's shared code; null or empty with no staff codes: the merchant asks for none, and nothing is checked or counted. */
  expected: string | null | undefined;
  /** Whether any staff member of the merchant has set their own code (Merchant.staff_manager_codes). */
  staffCodes?: boolean;
  /** Who sends the request: an owner's or manager's own token approves as them. */
  actor?: AuditActor;
  /** What the request sent (absent or null: nothing, which is wrong when a code is required). */
  given: string | null | undefined;
  merchantId: number;
  /** What the code unlocks (the order's uuid): the per-order window's subject. */
  scope: string;
  /** Error object of the request (`refund`, or a detached refund's `detached_refund`). */
  object: string;
  /**
   * The management refund (docs/merchant-api.md, "Orders"): where the merchant requires a code, an owner's or
   * manager's token approves only with that person's OWN code (not the shared one, not a colleague's), so the
   * refund is approved by a code typed at that moment, as at the register, and still names the signed-in person.
   */
  ownCode?: boolean;
}

/** Who approved a money action: a staff member (their code or their own token), or null (the shared code, or none needed). */
export interface Approval {
  approvedBy: number | null;
}

/**
 * Passes when the merchant needs no code or a right one was sent (a staff member's own code first, then the shared
 * one), and says whose it was; otherwise 422 `<object>` /
 * `manager_confirmation` "Manager confirmation was incorrect." (the contract's answer), and once the order's or
 * the merchant's window holds its limit, 429 `manager_confirmation_locked` with Retry-After. With `ownCode`, an
 * owner or manager at a merchant that requires codes passes only with their own code (confirmOwnCode).
 */
export async function confirmManager(check: ManagerConfirmationCheck): Promise<Approval> {
  const actor = check.actor;
  const required = Boolean(check.expected) || check.staffCodes === true;
  if (actor?.kind === 'staff' && (actor.role === 'owner' || actor.role === 'manager')) {
    if (check.ownCode && required) return confirmOwnCode(check, actor.staffId);
    return { approvedBy: actor.staffId };
  }
  if (!required) return { approvedBy: null };
  const giveBack = await countAttempt(check);
  const holder = check.staffCodes ? await managerCodeHolder(check.merchantId, check.given) : undefined;
  if (holder !== undefined || (check.expected && codesMatch(check.expected, check.given ?? ''))) {
    await giveBack();
    return { approvedBy: holder ?? null };
  }
  throw unprocessable(check.object, 'manager_confirmation', 'Manager confirmation was incorrect.');
}

/**
 * The signed-in owner's or manager's own code (`ownCode`): none sent, or none set yet, is refused before any attempt
 * is counted (neither is a guess); a code sent is counted in the register's windows and compared with their own
 * code's digest only. Any other code, a colleague's or the shared one included, is the same "not your code" answer,
 * so a guesser never learns that they hit someone else's code.
 */
async function confirmOwnCode(check: ManagerConfirmationCheck, staffId: number): Promise<Approval> {
  const own = await StaffManagerCode.at(check.merchantId, staffId).get({ consistent: true });
  if (!own) {
    throw unprocessable(
      check.object,
      'manager_confirmation',
      'Refunds here need your own manager code, and you have not set one yet. Set it (My manager code), then refund.',
      'manager_code_not_set',
    );
  }
  if (!check.given) {
    throw unprocessable(check.object, 'manager_confirmation', 'Enter your own manager code to approve this refund.', 'manager_code_required');
  }
  const giveBack = await countAttempt(check);
  if (codesMatch(own.code_digest, managerCodeDigest(check.merchantId, check.given))) {
    await giveBack();
    return { approvedBy: staffId };
  }
  throw unprocessable(
    check.object,
    'manager_confirmation',
    "That is not your manager code. Enter your own code: another person's code does not approve your refund.",
    'manager_code_incorrect',
  );
}

/**
 * Counts one code attempt in the order's and the merchant's windows before the code is compared (429
 * `manager_confirmation_locked` once either is full); answers the function that gives the attempt back, called when
 * the code was right, so only wrong codes stay counted.
 */
async function countAttempt(check: ManagerConfirmationCheck): Promise<() => Promise<unknown>> {
  const windows: [WindowLimit, string][] = [
    [MANAGER_CODE_ORDER_FAILURES, `${check.merchantId}#${check.scope}`],
    [MANAGER_CODE_MERCHANT_FAILURES, String(check.merchantId)],
  ];
  // One window after the other, the narrower first: an attempt the order's window refuses never touches the
  // merchant's. Reserved side by side, 30 concurrent guesses at one order each held a merchant hit for a moment
  // (up to 30 against its 20), so the merchant's window refused some of the 5 the order's had let through, and
  // fewer than 5 codes were compared (CI at 1ea5447).
  const held: [WindowLimit, string][] = [];
  const giveBack = () => Promise.all(held.map(([limit, subject]) => release(limit, subject)));
  for (const [limit, subject] of windows) {
    const reservation = await reserve(limit, subject);
    if (reservation.allowed) {
      held.push([limit, subject]);
      continue;
    }
    // The window that refused holds no hit of this attempt; the one before it must not keep one either.
    await giveBack();
    log('warn', 'manager_confirmation_locked', { merchant_id: check.merchantId, scope: check.scope, retry_after: reservation.retryAfterSeconds });
    throw rateLimited(
      check.object,
      'Too many incorrect manager confirmations; refunds here are locked for a while. Try again later.',
      'manager_confirmation_locked',
      reservation.retryAfterSeconds,
    );
  }
  return giveBack;
}

/**
 * For money actions that take a code without requiring one (credit grants, gift card value removals): an owner's or
 * manager's own token approves as them; a code sent is checked as a refund's is (same windows, a wrong one refused),
 * against the staff's own codes and the merchant's shared one, and names its holder; none sent approves as nobody.
 * `operation` is both the per-operation window's subject and the error object.
 */
export async function optionalApproval(check: {
  merchantId: number;
  given: string | null | undefined;
  actor: AuditActor | undefined;
  operation: 'merchant_funded_credit' | 'gift_card_value_removal';
}): Promise<Approval> {
  const { merchantId, given, actor, operation } = check;
  const expected = await sharedManagerCode(merchantId, given);
  if (actor?.kind === 'staff' && (actor.role === 'owner' || actor.role === 'manager')) return { approvedBy: actor.staffId };
  if (!given) return { approvedBy: null };
  return confirmManager({ expected, given, actor, merchantId, scope: operation, object: operation, staffCodes: true });
}

/** The merchant's shared code, read only when a code was sent to an operation that does not require one. */
async function sharedManagerCode(merchantId: number, given: string | null | undefined): Promise<string | null> {
  if (!given) return null;
  return (await Merchant.at(merchantId).get({ consistent: true, attributes: ['manager_confirmation'] }))?.manager_confirmation ?? null;
}

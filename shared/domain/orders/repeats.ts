/**
 * Natural idempotency of a settlement (issue 34.2): no LevelUp SDK sends an Idempotency-Key, so a POS that
 * lost the answer of a completion sends the same completion again. A source (a proposed order, a remote
 * check) is completed at most once, and its money transaction stores a fingerprint of the terms it was
 * completed with (`completed_terms`, lease.ts `completeItems`). A repeat of the same terms answers the
 * stored order (nothing is charged again); a repeat with other terms is a 422 that says so. A repeat that
 * arrives while the first is still settling waits for it (reads only), as a second settlement of the same
 * customer waits for the customer's hold.
 */
import { createHash } from 'node:crypto';
import { backoff, CONTENTION_BACKOFF, retryTransient } from '#shared/db/transient.ts';
import { ApiError, unprocessable } from '#shared/errors.ts';
import { canonicalJson } from '#shared/domain/money/idempotency.ts';
import { CUSTOMER_WAIT_MS, readSource, stateOf, type SettlementSource } from './lease.ts';
import { getOrder, type OrderRecord, type OrderTerms } from './record.ts';

export const TERMS_DIFFER = () =>
  unprocessable(
    'order',
    'base',
    'This order was already completed with different terms; nothing was charged. Propose a new order for a new check.',
    'differs_from_completed',
  );

/** How long a repeat waits for the first request's settlement in flight before answering its 409. */
export const REPEAT_WAIT_MS = CUSTOMER_WAIT_MS;

const TERM_FIELDS = [
  'spend_amount',
  'tax_amount',
  'tip_amount',
  'applied_discount_amount',
  'exemption_amount',
  'partial_authorization_allowed',
  'discount_only',
  'items',
  'fees',
  'identifier_from_merchant',
  'cashier',
  'register',
  'receipt_message_html',
] as const satisfies readonly (keyof OrderTerms)[];

/** The terms an order was completed with, as a short stable string (only these fields: the parties are checked apart). */
export function termsFingerprint(terms: OrderTerms): string {
  const picked = Object.fromEntries(TERM_FIELDS.map((field) => [field, terms[field] ?? null]));
  return createHash('sha256').update(canonicalJson(picked)).digest('base64url');
}

/** Whether a settlement's error may come from a repeat of a completion: its source completed, or being completed. */
export function mayBeRepeat(error: unknown): boolean {
  const code = error instanceof ApiError ? error.details?.[0]?.code : undefined;
  return code === 'already_completed' || code === 'in_progress';
}

/**
 * The order a repeat of a completion answers: the source's stored order when it was completed with the same
 * terms (waiting up to REPEAT_WAIT_MS while it is still being settled); TERMS_DIFFER when it was completed with
 * others; undefined when it was not completed in that time (the caller then answers its own error: a 409 the
 * POS retries, or a source that cannot be completed at all).
 */
export async function repeatedSettlement(source: SettlementSource, terms: OrderTerms): Promise<OrderRecord | undefined> {
  const deadline = Date.now() + REPEAT_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const current = await readSource(source);
    const state = stateOf(source, current);
    if (state === source.toState) {
      // A source completed before its terms were stored has no fingerprint: it keeps the old answer.
      if (typeof current?.completed_terms !== 'string' || typeof current.completed_order_uuid !== 'string') return undefined;
      if (current.completed_terms !== termsFingerprint(terms)) throw TERMS_DIFFER();
      const orderUuid = current.completed_order_uuid;
      return retryTransient(() => getOrder(orderUuid));
    }
    // Still open: the first request is settling (or has just failed and given it back): wait with reads.
    if (state !== source.fromState || Date.now() > deadline) return undefined;
    await backoff(attempt, CONTENTION_BACKOFF);
  }
}

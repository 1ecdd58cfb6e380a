/**
 * The settlement's two leases, both taken before anything is charged and both given up by the money
 * transaction that commits (settlement.ts):
 *
 * - The customer's HOLD (`keys.customerSettlement`): one settlement per customer and merchant at a time. Two
 *   orders of one customer settling at once would both read the same balances and loyalty progress; one of
 *   them would then lose its commit, and its card charge would be voided and made again (issue 12.5: 8
 *   concurrent orders made 27 voids). So a settlement first acquires the hold: the card is charged once per
 *   order. A waiter polls with reads (a read does not disturb the holder's transaction) and answers 409 with
 *   Retry-After when the wait runs out (a duplicate of the holder's own order gets the claim's 409
 *   `in_progress` at once); the client retries. Money never depends on the hold: the transaction's guards still hold.
 * - The source's CLAIM (a proposed order, a remote check, an order-ahead order): a conditional update that
 *   takes a short lease while the source is still in `fromState`. Only the claim's holder charges; a
 *   concurrent settlement gets 409 (claimed) or 422 (already completed). The source's state moves to
 *   `toState` inside the money transaction, guarded by the claim.
 *
 * Vocabulary: `acquire*` takes a lease, `release*` gives it back after a try that did not commit (a claim
 * released after a charge raises its attempt number, so the next try is a new gateway charge), `complete*`
 * is the lease's part of the money transaction. A crashed settlement frees both when their leases expire
 * (the hold never outlives the claim). A one-step order acquires both with the write that creates its
 * source (`acquiredAtCreation`).
 *
 * The source's completion is kept here too, since the claim's last write leaves it: the completed order's uuid
 * and a fingerprint of the terms it was completed with. So a repeat of a completion (issue 34.2: no LevelUp SDK
 * sends an Idempotency-Key, and a POS that lost the answer sends the same completion again) is answered here:
 * the same terms answer the stored order (nothing is charged again), other terms are a 422 that says so, and a
 * repeat that arrives while the first is still settling waits for it (reads only), as a second settlement of
 * the same customer waits for the customer's hold.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { and, attributeMissing, below, equals, itemIsNew, or, stateIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, retryTransient } from '#shared/db/transient.ts';
import { ApiError, conflict, unprocessable } from '#shared/errors.ts';
import { canonicalJson } from '#shared/domain/money/idempotency.ts';
import { epochSeconds } from '#shared/time.ts';
import { getOrder, type OrderRecord, type OrderTerms } from './record.ts';

/** How long a settlement holds its customer and its source; a crashed settlement frees them after this. */
export const SETTLEMENT_LEASE_SECONDS = 30;

/** How long a settlement waits for another of the same customer before answering 409. */
export const CUSTOMER_WAIT_MS = 4000;

export interface SettlementSource {
  /** The item whose state transition guards the settlement. */
  key: Key;
  fromState: string;
  toState: string;
  /** Its state as the caller read it: a source that cannot be settled is refused before any lease. */
  state: string;
  /** Its uuid: gateway idempotency keys derive from it. */
  uuid: string;
}

/**
 * What the settlement writes on its source's item, whatever the source (a proposed order, a check, an order-ahead
 * order: each entity's attributes include these): the claim's lease, and what the completion leaves.
 */
export interface SettlementSourceAttributes {
  state: string;
  settlement_lease_token?: string;
  /** Epoch seconds: the claim's lease runs until then. */
  settlement_lease_until?: number;
  /** Raised by a release after a charge: the gateway keys of the next try differ. */
  settlement_attempt?: number;
  /** The lease a release gave back (a re-sent release recognises itself). */
  settlement_released_lease?: string;
  completed_order_uuid?: string;
  /** The fingerprint of the terms the source was completed with (`termsFingerprint`). */
  completed_terms?: string;
  updated_at?: string;
}

/**
 * The settlement's view of its source's item, by the source's own key: the claim reads and writes only the
 * attributes above, so one view serves every kind of source (it never writes an item of its own: no put, no tag).
 */
const LeasedSource = defineEntity<SettlementSourceAttributes>()({ entity: 'SettlementSource', key: (key: Key) => key });
export type LeasedSourceItem = EntityItem<typeof LeasedSource>;

/** The customer's hold at a merchant as stored (`keys.customerSettlement`): one settlement's lease on it. */
const CustomerSettlement = defineEntity<{
  user_id: number;
  merchant_id: number;
  source_uuid: string;
  lease_token: string;
  /** Epoch seconds: the hold runs until then. */
  lease_until: number;
}>()({ entity: 'CustomerSettlement', key: keys.customerSettlement });

/** The hold may be taken: nobody holds it, or its holder's lease ran out before `now` (epoch seconds). */
const holdIsFree = (now: number) => or(itemIsNew, below('lease_until', now));
/** The hold is still the one `token` took. */
const holdIs = (token: string) => equals('lease_token', token);
/** No claim's lease runs on the source at `now` (epoch seconds): none was taken, or it ran out (a check's terms may change then too). */
export const noClaimRuns = (now: number) => or(attributeMissing('settlement_lease_until'), below('settlement_lease_until', now));
/** The source's claim is still the one `token` took. */
const claimIs = (token: string) => equals('settlement_lease_token', token);
/** No claim is on the source, or only `claim` (ours). */
export const unclaimedOrClaimedBy = (claim?: Claim) =>
  claim ? or(attributeMissing('settlement_lease_token'), claimIs(claim.leaseToken)) : attributeMissing('settlement_lease_token');

/** The customer's hold at a merchant (its lease item and our token on it). */
export interface CustomerHold {
  userId: number;
  merchantId: number;
  token: string;
}

/** The source's claim: our lease token on it and the attempt number its gateway keys carry. */
export interface Claim {
  leaseToken: string;
  attempt: number;
}

/** A customer hold and a source claim already taken (steps 0 and 1 of the saga). */
export interface Acquired {
  hold: CustomerHold;
  claim: Claim;
}

export const ALREADY_COMPLETED = () => unprocessable('order', 'base', 'This order has already been completed.', 'already_completed');
export const NOT_COMPLETABLE = () => unprocessable('order', 'base', 'This order cannot be completed.', 'not_completable');
export const IN_PROGRESS = (retryAfter: number) =>
  conflict('This order is being completed by another request; retry shortly.', retryAfter, 'order', 'in_progress');
export const CUSTOMER_BUSY = () => conflict('Another order of this customer is being completed; retry shortly.', 1, 'order', 'customer_busy');

/** Why a source in `state` cannot be settled (already settled, or never settleable), or undefined. */
export function stateRefusal(source: SettlementSource, state: unknown): ApiError | undefined {
  if (state === source.toState) return ALREADY_COMPLETED();
  if (state !== source.fromState) return NOT_COMPLETABLE();
  return undefined;
}

/** The source as it is now (consistent read; the entity's get re-sends it on transient errors). */
export async function readSource(source: SettlementSource): Promise<LeasedSourceItem | undefined> {
  return LeasedSource.at(source.key).get({ consistent: true });
}

/** Retry-After of a 409 for a lease that runs until `until` (epoch seconds). */
function secondsLeft(until: unknown, now: number): number {
  return Math.max(1, Math.min(5, Number(until ?? now) - now));
}

// ---- acquire ----

/**
 * The Put that takes `hold` for `sourceUuid` at `now` (epoch seconds): only while the hold is free or its
 * holder's lease expired.
 */
function holdPut(hold: CustomerHold, sourceUuid: string, now: number): TransactItem {
  return CustomerSettlement.at(hold.userId, hold.merchantId).put(
    { user_id: hold.userId, merchant_id: hold.merchantId, source_uuid: sourceUuid, lease_token: hold.token, lease_until: now + SETTLEMENT_LEASE_SECONDS },
    holdIsFree(now),
  );
}

/** Acquires the customer's hold at the merchant for `sourceUuid`, waiting up to CUSTOMER_WAIT_MS for another holder. */
export async function acquireHold(userId: number, merchantId: number, sourceUuid: string): Promise<CustomerHold> {
  const hold: CustomerHold = { userId, merchantId, token: newUuid() };
  const deadline = Date.now() + CUSTOMER_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const put = holdPut(hold, sourceUuid, epochSeconds());
    try {
      // Re-sent when its answer is lost; the token tells our own earlier success from a rival's.
      await retryTransient(() => db().send(new PutCommand(put.Put!)));
      return hold;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Held: wait with reads until it looks free, then try to take it again.
    for (;;) {
      const holder = await CustomerSettlement.at(hold.userId, hold.merchantId).get({ consistent: true });
      if (holder?.lease_token === hold.token) return hold;
      const now = epochSeconds();
      if (holder === undefined || holder.lease_until < now) break;
      // The holder is settling this very order (a duplicate request): the answer the source's own claim gives.
      if (holder.source_uuid === sourceUuid) throw IN_PROGRESS(secondsLeft(holder.lease_until, now));
      if (Date.now() > deadline) throw CUSTOMER_BUSY();
      await backoff(attempt++, CONTENTION_BACKOFF);
    }
  }
}

/** Acquires the source's claim: only while it is in `fromState` and no other claim's lease runs. */
export async function acquireClaim(source: SettlementSource): Promise<Claim> {
  const leaseToken = newUuid();
  const now = epochSeconds();
  try {
    // Re-sent when its answer is lost; the lease token tells our own earlier success (below) from a rival.
    const claim = LeasedSource.at(source.key).update(
      { set: { settlement_lease_token: leaseToken, settlement_lease_until: now + SETTLEMENT_LEASE_SECONDS }, setIfAbsent: { settlement_attempt: 0 } },
      and(stateIs(source.fromState), noClaimRuns(now)),
    );
    const result = await retryTransient(() => db().send(new UpdateCommand({ ...claim.Update, ReturnValues: 'ALL_NEW' })));
    return { leaseToken, attempt: LeasedSource.from(result.Attributes)?.settlement_attempt ?? 0 };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = await readSource(source);
    if (!current) throw NOT_COMPLETABLE();
    if (current.settlement_lease_token === leaseToken && current.state === source.fromState) return { leaseToken, attempt: current.settlement_attempt ?? 0 };
    throw stateRefusal(source, current.state) ?? IN_PROGRESS(secondsLeft(current.settlement_lease_until, now));
  }
}

/**
 * Both leases of a source created already claimed (a one-step order's: its source is ours alone from its
 * creation, one-step.ts): the attributes acquireClaim would have set, to write with the source's item, and
 * the Put that acquires the hold, to send in the same transaction.
 */
export function acquiredAtCreation(
  userId: number,
  merchantId: number,
  sourceUuid: string,
  now: number = epochSeconds(),
): {
  acquired: Acquired;
  claimAttributes: Required<Pick<SettlementSourceAttributes, 'settlement_lease_token' | 'settlement_lease_until' | 'settlement_attempt'>>;
  holdPut: TransactItem;
} {
  const claim: Claim = { leaseToken: newUuid(), attempt: 0 };
  const hold: CustomerHold = { userId, merchantId, token: newUuid() };
  return {
    acquired: { hold, claim },
    claimAttributes: { settlement_lease_token: claim.leaseToken, settlement_lease_until: now + SETTLEMENT_LEASE_SECONDS, settlement_attempt: 0 },
    holdPut: holdPut(hold, sourceUuid, now),
  };
}

// ---- release (a try that did not commit) ----

/**
 * Gives the source back after a failed try; `charged` raises the attempt so the next try is a new charge.
 * True when this claim released it; false when the lease had passed to another settlement (which then
 * holds the same attempt, hence the same charge). `settlement_released_lease` lets a re-sent release whose
 * first answer was lost recognise that it already happened.
 */
export async function releaseClaim(source: SettlementSource, claim: Claim, charged: boolean): Promise<boolean> {
  const release = LeasedSource.at(source.key).update(
    {
      remove: ['settlement_lease_token', 'settlement_lease_until'],
      set: { settlement_attempt: claim.attempt + (charged ? 1 : 0), settlement_released_lease: claim.leaseToken },
    },
    or(claimIs(claim.leaseToken), equals('settlement_released_lease', claim.leaseToken)),
  );
  return sendRelease(() => new UpdateCommand(release.Update));
}

/** Gives the customer's hold back after a settlement that did not commit (best effort: it expires anyway). */
export async function releaseHold(hold: CustomerHold): Promise<void> {
  const release = CustomerSettlement.at(hold.userId, hold.merchantId).delete(holdIs(hold.token));
  await sendRelease(() => new DeleteCommand(release.Delete));
}

/** Sends a release, re-sent on transient errors: false when its condition failed (the lease was no longer ours). */
async function sendRelease(command: () => UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    await retryTransient(() => db().send(command()));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/** Gives both leases back, at once, before anything was charged. */
export async function releaseAcquired(source: SettlementSource, acquired: Acquired): Promise<void> {
  await Promise.all([releaseClaim(source, acquired.claim, false), releaseHold(acquired.hold)]);
}

// ---- complete (inside the money transaction) ----

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
function termsFingerprint(terms: OrderTerms): string {
  const picked = Object.fromEntries(TERM_FIELDS.map((field) => [field, terms[field] ?? null]));
  return createHash('sha256').update(canonicalJson(picked)).digest('base64url');
}

/**
 * The leases' part of the money transaction: the source's state transition guarded by the claim, and the
 * hold's Delete guarded by its token (it commits only while both are ours). The transition keeps the order's
 * uuid and the terms' fingerprint, which a repeat of the completion is answered by (`repeatedSettlement`).
 */
export function completeItems(
  source: SettlementSource,
  { claim, hold }: Acquired,
  orderUuid: string,
  now: string,
  terms: OrderTerms,
): { source: TransactItem; customer: TransactItem } {
  return {
    source: LeasedSource.at(source.key).update(
      {
        set: { state: source.toState, completed_order_uuid: orderUuid, completed_terms: termsFingerprint(terms), updated_at: now },
        remove: ['settlement_lease_token', 'settlement_lease_until'],
      },
      and(stateIs(source.fromState), claimIs(claim.leaseToken)),
    ),
    customer: CustomerSettlement.at(hold.userId, hold.merchantId).delete(holdIs(hold.token)),
  };
}

// ---- after the fact: the order a source was completed with ----

export const TERMS_DIFFER = () =>
  unprocessable(
    'order',
    'base',
    'This order was already completed with different terms; nothing was charged. Propose a new order for a new check.',
    'differs_from_completed',
  );

/** How long a repeat waits for the first request's settlement in flight before answering its 409. */
export const REPEAT_WAIT_MS = CUSTOMER_WAIT_MS;

/** The order a source was completed with, if it was. */
export async function completedOrderOf(source: SettlementSource): Promise<OrderRecord | undefined> {
  const completedUuid = (await readSource(source))?.completed_order_uuid;
  return typeof completedUuid === 'string' ? getOrder(completedUuid) : undefined;
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
  const fingerprint = termsFingerprint(terms);
  const deadline = Date.now() + REPEAT_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const current = await readSource(source);
    const state = current?.state;
    if (state === source.toState) {
      // A source completed before its terms were stored has no fingerprint: it keeps the old answer.
      if (typeof current?.completed_terms !== 'string' || typeof current.completed_order_uuid !== 'string') return undefined;
      if (current.completed_terms !== fingerprint) throw TERMS_DIFFER();
      return getOrder(current.completed_order_uuid);
    }
    // Still open: the first request is settling (or has just failed and given it back): wait with reads.
    if (state !== source.fromState || Date.now() > deadline) return undefined;
    await backoff(attempt, CONTENTION_BACKOFF);
  }
}

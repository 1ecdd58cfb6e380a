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
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF, retryTransient } from '#shared/db/transient.ts';
import { conflict, unprocessable, type ApiError } from '#shared/errors.ts';
import { epochSeconds } from '#shared/time.ts';

/** How long a settlement holds its customer and its source; a crashed settlement frees them after this. */
export const SETTLEMENT_LEASE_SECONDS = 30;

/** How long a settlement waits for another of the same customer before answering 409. */
export const CUSTOMER_WAIT_MS = 4000;

export interface SettlementSource {
  /** The item whose state transition guards the settlement. */
  key: Key;
  /** Attribute holding its state (default `state`). */
  stateAttribute?: string;
  fromState: string;
  toState: string;
  /** Its state as the caller read it: a source that cannot be settled is refused before any lease. */
  state: string;
  /** Its uuid: gateway idempotency keys derive from it. */
  uuid: string;
}

/** The customer's hold at a merchant (its lease item and our token on it). */
export interface CustomerHold {
  key: Key;
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

export function stateOf(source: SettlementSource, item: Record<string, unknown> | undefined): unknown {
  return item?.[source.stateAttribute ?? 'state'];
}

/** The item under `key` as it is now (consistent read), re-sent on transient errors. */
async function readNow(key: Key): Promise<Record<string, unknown> | undefined> {
  return (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true })))).Item;
}

/** The source as it is now (consistent read), re-sent on transient errors. */
export async function readSource(source: SettlementSource): Promise<Record<string, unknown> | undefined> {
  return readNow(source.key);
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
function holdPut(hold: CustomerHold, userId: number, merchantId: number, sourceUuid: string, now: number): NonNullable<TransactItem['Put']> {
  return {
    TableName: table(),
    Item: {
      ...hold.key,
      entity: 'CustomerSettlement',
      user_id: userId,
      merchant_id: merchantId,
      source_uuid: sourceUuid,
      lease_token: hold.token,
      lease_until: now + SETTLEMENT_LEASE_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(pk) OR lease_until < :now',
    ExpressionAttributeValues: { ':now': now },
  };
}

/** Acquires the customer's hold at the merchant for `sourceUuid`, waiting up to CUSTOMER_WAIT_MS for another holder. */
export async function acquireHold(userId: number, merchantId: number, sourceUuid: string): Promise<CustomerHold> {
  const hold: CustomerHold = { key: keys.customerSettlement(userId, merchantId), token: newUuid() };
  const deadline = Date.now() + CUSTOMER_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const put = holdPut(hold, userId, merchantId, sourceUuid, epochSeconds());
    try {
      // Re-sent when its answer is lost; the token tells our own earlier success from a rival's.
      await retryTransient(() => db().send(new PutCommand(put)));
      return hold;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Held: wait with reads until it looks free, then try to take it again.
    for (;;) {
      const holder = await readNow(hold.key);
      if (holder?.lease_token === hold.token) return hold;
      const now = epochSeconds();
      if (holder === undefined || Number(holder.lease_until ?? 0) < now) break;
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
    const result = await retryTransient(() =>
      db().send(
        new UpdateCommand({
          TableName: table(),
          Key: source.key,
          UpdateExpression:
            'SET settlement_lease_token = :token, settlement_lease_until = :until, settlement_attempt = if_not_exists(settlement_attempt, :zero)',
          ConditionExpression: '#state = :from AND (attribute_not_exists(settlement_lease_until) OR settlement_lease_until < :now)',
          ExpressionAttributeNames: { '#state': source.stateAttribute ?? 'state' },
          ExpressionAttributeValues: { ':token': leaseToken, ':until': now + SETTLEMENT_LEASE_SECONDS, ':zero': 0, ':from': source.fromState, ':now': now },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return { leaseToken, attempt: Number(result.Attributes?.settlement_attempt ?? 0) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = await readSource(source);
    if (!current) throw NOT_COMPLETABLE();
    const state = stateOf(source, current);
    if (current.settlement_lease_token === leaseToken && state === source.fromState) return { leaseToken, attempt: Number(current.settlement_attempt ?? 0) };
    throw stateRefusal(source, state) ?? IN_PROGRESS(secondsLeft(current.settlement_lease_until, now));
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
): { acquired: Acquired; claimAttributes: Record<string, unknown>; holdPut: NonNullable<TransactItem['Put']> } {
  const claim: Claim = { leaseToken: newUuid(), attempt: 0 };
  const hold: CustomerHold = { key: keys.customerSettlement(userId, merchantId), token: newUuid() };
  return {
    acquired: { hold, claim },
    claimAttributes: { settlement_lease_token: claim.leaseToken, settlement_lease_until: now + SETTLEMENT_LEASE_SECONDS, settlement_attempt: 0 },
    holdPut: holdPut(hold, userId, merchantId, sourceUuid, now),
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
  return sendRelease(
    () =>
      new UpdateCommand({
        TableName: table(),
        Key: source.key,
        UpdateExpression: 'REMOVE settlement_lease_token, settlement_lease_until SET settlement_attempt = :attempt, settlement_released_lease = :token',
        ConditionExpression: 'settlement_lease_token = :token OR settlement_released_lease = :token',
        ExpressionAttributeValues: { ':token': claim.leaseToken, ':attempt': claim.attempt + (charged ? 1 : 0) },
      }),
  );
}

/** Gives the customer's hold back after a settlement that did not commit (best effort: it expires anyway). */
export async function releaseHold(hold: CustomerHold): Promise<void> {
  await sendRelease(
    () =>
      new DeleteCommand({
        TableName: table(),
        Key: hold.key,
        ConditionExpression: 'lease_token = :token',
        ExpressionAttributeValues: { ':token': hold.token },
      }),
  );
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

/**
 * The leases' part of the money transaction: the source's state transition guarded by the claim, and the
 * hold's Delete guarded by its token (it commits only while both are ours). `completedTerms` (the terms'
 * fingerprint, repeats.ts) lets a repeat of the completion answer this order (issue 34.2).
 */
export function completeItems(
  source: SettlementSource,
  { claim, hold }: Acquired,
  orderUuid: string,
  now: string,
  completedTerms: string,
): { source: TransactItem; customer: TransactItem } {
  return {
    source: {
      Update: {
        TableName: table(),
        Key: source.key,
        UpdateExpression:
          'SET #state = :to, completed_order_uuid = :uuid, completed_terms = :terms, updated_at = :now REMOVE settlement_lease_token, settlement_lease_until',
        ConditionExpression: '#state = :from AND settlement_lease_token = :token',
        ExpressionAttributeNames: { '#state': source.stateAttribute ?? 'state' },
        ExpressionAttributeValues: {
          ':to': source.toState,
          ':from': source.fromState,
          ':token': claim.leaseToken,
          ':uuid': orderUuid,
          ':terms': completedTerms,
          ':now': now,
        },
      },
    },
    customer: {
      Delete: { TableName: table(), Key: hold.key, ConditionExpression: 'lease_token = :token', ExpressionAttributeValues: { ':token': hold.token } },
    },
  };
}

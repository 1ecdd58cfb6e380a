/**
 * The settlement lease: who may charge for a source (a proposed order, an order-ahead order).
 *
 * A settlement first claims its source with a conditional update that takes a short lease while the
 * source is still in `fromState`. Only the lease holder charges; a concurrent settlement gets 409 (lease
 * held) or 422 (already completed). The source's state moves to `toState` inside the money transaction,
 * guarded by the lease (settlement.ts). A failed try gives the source back with its attempt number
 * raised, so the next try is a new gateway charge; a crashed one frees it when the lease expires.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import type { Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { retryTransient } from '#shared/db/transient.ts';
import { conflict, unprocessable, type ApiError } from '#shared/errors.ts';
import { epochSeconds } from '#shared/time.ts';

/** How long a settlement holds its source; a crashed settlement frees it after this. */
export const SETTLEMENT_LEASE_SECONDS = 30;

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

export interface Claim {
  leaseToken: string;
  attempt: number;
}

export const ALREADY_COMPLETED = () => unprocessable('order', 'base', 'This order has already been completed.', 'already_completed');
export const NOT_COMPLETABLE = () => unprocessable('order', 'base', 'This order cannot be completed.', 'not_completable');
export const IN_PROGRESS = (retryAfter: number) =>
  conflict('This order is being completed by another request; retry shortly.', retryAfter, 'order', 'in_progress');

/** Why a source in `state` cannot be settled (already settled, or never settleable), or undefined. */
export function stateRefusal(source: SettlementSource, state: unknown): ApiError | undefined {
  if (state === source.toState) return ALREADY_COMPLETED();
  if (state !== source.fromState) return NOT_COMPLETABLE();
  return undefined;
}

export function stateOf(source: SettlementSource, item: Record<string, unknown> | undefined): unknown {
  return item?.[source.stateAttribute ?? 'state'];
}

/** The source as it is now (consistent read), re-sent on transient errors. */
export async function readSource(source: SettlementSource): Promise<Record<string, unknown> | undefined> {
  return (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: source.key, ConsistentRead: true })))).Item;
}

/**
 * The claim of a source created already claimed (a one-step order's: its source is ours alone from its
 * creation, one-step.ts), and the attributes claimSource would have set on it, to write with the item.
 */
export function claimAtCreation(now: number = epochSeconds()): { claim: Claim; attributes: Record<string, unknown> } {
  const leaseToken = newUuid();
  return {
    claim: { leaseToken, attempt: 0 },
    attributes: { settlement_lease_token: leaseToken, settlement_lease_until: now + SETTLEMENT_LEASE_SECONDS, settlement_attempt: 0 },
  };
}

export async function claimSource(source: SettlementSource): Promise<Claim> {
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
    throw stateRefusal(source, state) ?? IN_PROGRESS(Math.max(1, Math.min(5, Number(current.settlement_lease_until ?? now) - now)));
  }
}

/**
 * Gives the source back after a failed try; `charged` raises the attempt so the next try is a new charge.
 * True when this claim released it; false when the lease had passed to another settlement (which then
 * holds the same attempt, hence the same charge). `settlement_released_lease` lets a re-sent release whose
 * first answer was lost recognise that it already happened.
 */
export async function releaseSource(source: SettlementSource, claim: Claim, charged: boolean): Promise<boolean> {
  try {
    await retryTransient(() =>
      db().send(
        new UpdateCommand({
          TableName: table(),
          Key: source.key,
          UpdateExpression: 'REMOVE settlement_lease_token, settlement_lease_until SET settlement_attempt = :attempt, settlement_released_lease = :token',
          ConditionExpression: 'settlement_lease_token = :token OR settlement_released_lease = :token',
          ExpressionAttributeValues: { ':token': claim.leaseToken, ':attempt': claim.attempt + (charged ? 1 : 0) },
        }),
      ),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/**
 * The state transition the money transaction commits, guarded by this claim's lease. `completedTerms` (the
 * terms' fingerprint, repeats.ts) lets a repeat of the completion answer this order (issue 34.2).
 */
export function completeSourceItem(source: SettlementSource, claim: Claim, orderUuid: string, now: string, completedTerms: string): TransactItem {
  return {
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
  };
}

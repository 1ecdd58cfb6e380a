/**
 * Proposed order-ahead orders: stored at start as `externally_validating`, moved exactly once to
 * `externally_valid` (with the priced order) or `externally_invalid` (with an error array) by the
 * validation state machine, and from `externally_valid` to `completed` by the completion's money
 * transaction. Every transition is a conditional write on the current state.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { keys } from '#shared/db/keys.ts';
import { createItem } from '#shared/db/transactions.ts';
import { errorDetail, notFound, tooManyRequests, type ErrorDetail } from '#shared/errors.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import type { Cart } from './cart.ts';
import type { PricedOrder } from './pricing.ts';

export type OrderAheadState = 'externally_validating' | 'externally_valid' | 'externally_invalid' | 'completed';

export interface OrderAheadRecord {
  uuid: string;
  user_id: number;
  app_id: number;
  state: OrderAheadState;
  cart: Cart;
  /** Set when valid: everything the poll shows, priced at validation time. */
  priced: PricedOrder | null;
  /** Set when invalid: the error array the poll answers with. */
  errors: ErrorDetail[] | null;
  /** Epoch seconds after which a still-validating order is treated as failed (see pollOrder). */
  validation_deadline: number;
  /** Epoch milliseconds of the last accepted poll (the once-per-second limit). */
  last_polled_at?: number;
  completed_order_uuid?: string;
  completed_at?: string;
  created_at: string;
  updated_at: string;
  ttl: number;
}

/** The state machine's own timeout; an order still validating after it (plus slack) has failed. */
export const VALIDATION_TIMEOUT_SECONDS = 60;
const VALIDATION_DEADLINE_SECONDS = VALIDATION_TIMEOUT_SECONDS + 30;
/** Proposed orders are short-lived; DynamoDB TTL removes them after this (a completed order lives on in the user's orders). */
const PROPOSED_ORDER_RETENTION_SECONDS = 30 * 24 * 3600;
/** The contract's poll limit. */
export const MIN_POLL_INTERVAL_MS = 1000;

export const VALIDATION_FAILED: ErrorDetail = errorDetail('order', 'base', 'We could not check this order with the restaurant. Please try again.', 'validation_failed');

export async function createProposedOrder(input: { userId: number; appId: number; cart: Cart; now?: Date }): Promise<OrderAheadRecord> {
  const now = input.now ?? new Date();
  const order: OrderAheadRecord = {
    uuid: newUuid(),
    user_id: input.userId,
    app_id: input.appId,
    state: 'externally_validating',
    cart: input.cart,
    priced: null,
    errors: null,
    validation_deadline: epochSeconds(now) + VALIDATION_DEADLINE_SECONDS,
    created_at: isoSeconds(now),
    updated_at: isoSeconds(now),
    ttl: epochSeconds(now) + PROPOSED_ORDER_RETENTION_SECONDS,
  };
  const created = await createItem({ ...keys.orderAheadOrder(order.uuid), entity: 'OrderAheadOrder', ...order });
  if (!created) throw new Error(`order ahead order ${order.uuid} already exists`);
  return order;
}

function stripKeys(item: Record<string, unknown>): OrderAheadRecord {
  const { pk: _pk, sk: _sk, entity: _entity, ...order } = item;
  return order as unknown as OrderAheadRecord;
}

export async function getProposedOrder(uuid: string): Promise<OrderAheadRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.orderAheadOrder(uuid), ConsistentRead: true }));
  return result.Item ? stripKeys(result.Item) : undefined;
}

/**
 * Ends validation: `externally_validating` -> valid or invalid, once. Returns false when the order
 * was no longer validating (a retried or duplicate execution, or the poll's deadline got there first).
 */
export async function finishValidation(uuid: string, outcome: { priced: PricedOrder } | { errors: ErrorDetail[] }): Promise<boolean> {
  const valid = 'priced' in outcome;
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.orderAheadOrder(uuid),
        UpdateExpression: 'SET #state = :next, priced = :priced, #errors = :errors, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #state = :validating',
        ExpressionAttributeNames: { '#state': 'state', '#errors': 'errors' },
        ExpressionAttributeValues: {
          ':next': valid ? 'externally_valid' : 'externally_invalid',
          ':priced': valid ? outcome.priced : null,
          ':errors': valid ? null : outcome.errors,
          ':validating': 'externally_validating',
          ':now': isoSeconds(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * A poll: one conditional UpdateItem that both enforces the once-per-second limit (on the order's
 * `last_polled_at`) and reads the order (ALL_NEW), so an accepted poll costs one round trip. A refused
 * poll gets the old item back from the same call (ReturnValuesOnConditionCheckFailure) to tell
 * "not yours / not there" (404) from "too soon" (429) without another read.
 */
export async function pollOrder(uuid: string, userId: number, now: Date = new Date()): Promise<OrderAheadRecord> {
  const nowMs = now.getTime();
  let order: OrderAheadRecord;
  try {
    const result = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.orderAheadOrder(uuid),
        UpdateExpression: 'SET last_polled_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND user_id = :user AND (attribute_not_exists(last_polled_at) OR last_polled_at <= :cutoff)',
        ExpressionAttributeValues: { ':now': nowMs, ':user': userId, ':cutoff': nowMs - MIN_POLL_INTERVAL_MS },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    order = stripKeys(result.Attributes!);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const old = (error as { Item?: Record<string, unknown> }).Item;
    const existing = old ? unmarshallIfNeeded(old) : undefined;
    if (!existing || Number(existing.user_id) !== userId) throw notFound();
    const waitMs = Number(existing.last_polled_at) + MIN_POLL_INTERVAL_MS - nowMs;
    throw tooManyRequests('Poll this order at most once per second.', Math.max(1, Math.ceil(waitMs / 1000)));
  }
  if (order.state === 'externally_validating' && epochSeconds(now) > order.validation_deadline) {
    // The state machine has its own timeout and a Catch; this covers what they cannot (an execution
    // that never started, or a validation function that cannot even record its failure).
    await finishValidation(uuid, { errors: [VALIDATION_FAILED] });
    return (await getProposedOrder(uuid)) ?? order;
  }
  return order;
}

/** The document client leaves a failed condition's item in DynamoDB's attribute-value form. */
function unmarshallIfNeeded(item: Record<string, unknown>): Record<string, unknown> {
  const flattened: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(item)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const typed = value as Record<string, unknown>;
      if ('N' in typed) flattened[name] = Number(typed.N);
      else if ('S' in typed) flattened[name] = typed.S;
      else flattened[name] = value;
    } else flattened[name] = value;
  }
  return flattened;
}

/**
 * Order-ahead orders: stored at start as `externally_validating`, moved exactly once to
 * `externally_valid` (with the priced order) or `externally_invalid` (with an error array) by the
 * validation state machine; then, once order_completion_url is POSTed, through the completion
 * workflow's states (completion.ts, fulfilment.ts): `submitting` -> `charging` -> `submitted` ->
 * `completed`, or `rejected`. Every transition is a conditional write on the current state.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { and, equals, itemExists, oneOf, stateIs, type Condition } from '#shared/db/conditions.ts';
import { newUuid } from '#shared/db/ids.ts';
import { createItem, transactWrite } from '#shared/db/transactions.ts';
import { errorDetail, notFound, type ErrorDetail } from '#shared/errors.ts';
import type { OrderAheadState } from '#shared/schemas/order-ahead.ts';
import { epochSeconds, isoSeconds } from '#shared/time.ts';
import type { Cart } from './cart.ts';
import { OrderAheadOrder, type OrderAheadItem, type OrderAheadRecord } from './record.ts';
import { validationEventItems, type ValidationResult } from './outcomes.ts';

export type { OrderAheadState } from '#shared/schemas/order-ahead.ts';
// The stored order's shape lives in record.ts, which outcomes.ts and serialize.ts read without importing this module.
export type { CompletionFacts, OrderAheadRecord, RejectionFacts } from './record.ts';

/** The state machine's own timeout; an order still validating after it (plus slack) has failed. */
export const VALIDATION_TIMEOUT_SECONDS = 60;
const VALIDATION_DEADLINE_SECONDS = VALIDATION_TIMEOUT_SECONDS + 30;
/**
 * Completion (docs/order-ahead.md, "Completion workflow"): the provider has PROVIDER_CUTOFF_SECONDS from
 * the POST to take the order (LevelUp's documented hard cut-off), asked every PROVIDER_POLL_SECONDS; the
 * state machine's own timeout leaves room for charging and for a rejection's retries around it. A
 * submission still in progress after the deadline (the workflow died) is given up by the poll.
 */
export const PROVIDER_CUTOFF_SECONDS = 90;
export const PROVIDER_POLL_SECONDS = 3;
export const COMPLETION_TIMEOUT_SECONDS = 600;
export const COMPLETION_DEADLINE_SECONDS = COMPLETION_TIMEOUT_SECONDS + 60;
/** Proposed orders are short-lived; DynamoDB TTL removes them after this (a completed order lives on in the user's orders). */
const PROPOSED_ORDER_RETENTION_SECONDS = 30 * 24 * 3600;
/** The contract asks clients to poll at most once a second; a client polling sooner is told to wait this long. */
export const POLL_RETRY_AFTER_SECONDS = 1;

export const VALIDATION_FAILED: ErrorDetail = errorDetail(
  'order',
  'base',
  'We could not check this order with the restaurant. Please try again.',
  'validation_failed',
);

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
  // Spread: createItem takes a plain record.
  const created = await createItem({ ...OrderAheadOrder.at(order.uuid).item(order) });
  if (!created) throw new Error(`order ahead order ${order.uuid} already exists`);
  return order;
}

/** The order without its key and tag: what the order-ahead modules and their answers work with. */
function withoutKeys(item: OrderAheadItem | undefined): OrderAheadRecord | undefined {
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...order } = item;
  return order;
}

export async function getProposedOrder(uuid: string): Promise<OrderAheadRecord | undefined> {
  return withoutKeys(await OrderAheadOrder.at(uuid).get({ consistent: true }));
}

/**
 * Ends validation: `externally_validating` -> valid or invalid, once, with its event for the user's app
 * (`order_ahead.validated` / `.invalidated`, outcomes.ts) in the same transaction. Returns false when the
 * order was no longer validating (a retried or duplicate execution, or the poll's deadline got there first)
 * or does not exist. `appId` is the order's app when the caller read the order already; without it the order
 * is read first (the Catch's step, which may not know it).
 */
export async function finishValidation(uuid: string, outcome: ValidationResult, appId?: number): Promise<boolean> {
  let app = appId;
  if (app === undefined) {
    const order = await getProposedOrder(uuid);
    if (order?.state !== 'externally_validating') return false;
    app = order.app_id;
  }
  const valid = 'priced' in outcome;
  const events = await validationEventItems({ uuid, app_id: app }, outcome);
  const result = await transactWrite(() => [
    OrderAheadOrder.at(uuid).update(
      {
        set: {
          state: valid ? 'externally_valid' : 'externally_invalid',
          priced: valid ? outcome.priced : null,
          errors: valid ? null : outcome.errors,
          updated_at: isoSeconds(),
        },
      },
      // The app is part of the guard: the event goes to the order's own app, never to one a caller named wrongly.
      and(itemExists, stateIs('externally_validating'), equals('app_id', app)),
    ),
    ...events,
  ]);
  if (result.committed) return true;
  // Only the order's guard refuses a validation's transaction (its event is the order's first, a fresh id);
  // anything else (a race lost eight times) is thrown, so the workflow's Retry runs the step again.
  if (result.reasons[0] === 'ConditionalCheckFailed') return false;
  throw new Error(`order ahead order ${uuid}: validation outcome not recorded (${result.reasons.join(', ')})`);
}

/**
 * Orders this container has just seen validating (table#uuid#user -> epoch ms): a repeat poll within the
 * contract's second answers 202 at once, with no read. The iOS SDK polls every 0.5 s, so this halves the
 * reads it costs wherever its polls reach the same warm function. Bounded; a miss only costs one read.
 */
const seenValidating = new Map<string, number>();
const SEEN_VALIDATING_LIMIT = 10_000;

export type PollOutcome = { kind: 'early' } | { kind: 'order'; order: OrderAheadRecord };

/**
 * A poll of order_url: never refused for coming early (the iOS SDK treats anything but 200/202/422 as a
 * failure). One consistent GetItem; an early repeat of a poll that found the order validating answers
 * from memory (above). Once valid or invalid the answer is final, so every later poll repeats it.
 */
export async function pollOrder(uuid: string, userId: number, now: Date = new Date()): Promise<PollOutcome> {
  const memoKey = `${table()}#${uuid}#${userId}`;
  const seenAt = seenValidating.get(memoKey);
  if (seenAt !== undefined && now.getTime() - seenAt < POLL_RETRY_AFTER_SECONDS * 1000) return { kind: 'early' };
  let order = await getProposedOrder(uuid);
  if (!order || order.user_id !== userId) throw notFound();
  if (order.state === 'externally_validating' && epochSeconds(now) > order.validation_deadline) {
    // The state machine has its own timeout and a Catch; this covers what they cannot (an execution
    // that never started, or a validation function that cannot even record its failure).
    await finishValidation(uuid, { errors: [VALIDATION_FAILED] }, order.app_id);
    order = (await getProposedOrder(uuid)) ?? order;
  }
  if (order.state === 'externally_validating') {
    if (seenValidating.size >= SEEN_VALIDATING_LIMIT) seenValidating.clear();
    seenValidating.set(memoKey, now.getTime());
  } else seenValidating.delete(memoKey);
  return { kind: 'order', order };
}

/** Reads the caller's own order (404 for anyone else's or none). */
export async function getUsersOrder(uuid: string, userId: number): Promise<OrderAheadRecord> {
  const order = await getProposedOrder(uuid);
  if (!order || order.user_id !== userId) throw notFound();
  return order;
}

/** A condition on an order-ahead order's attributes. */
export type OrderAheadCondition = Condition<Extract<keyof OrderAheadItem, string>>;

/** The conditional update of a transition: only while the order exists and is in one of `from` (plus `condition`). */
function transitionUpdate(
  uuid: string,
  from: readonly OrderAheadState[],
  to: OrderAheadState,
  fields: Partial<OrderAheadRecord>,
  condition?: OrderAheadCondition,
) {
  const guard = and(itemExists, oneOf('state', from), ...(condition ? [condition] : []));
  return OrderAheadOrder.at(uuid).update({ set: { state: to, updated_at: isoSeconds(), ...fields } }, guard).Update;
}

/**
 * Moves an order from one state to the next, once: the update holds only while the order is in one of
 * `from` (plus `condition`). Returns the order as updated, or undefined when it was no longer in `from`.
 */
export async function transitionOrder(
  uuid: string,
  from: readonly OrderAheadState[],
  to: OrderAheadState,
  fields: Partial<OrderAheadRecord> = {},
  condition?: OrderAheadCondition,
): Promise<OrderAheadRecord | undefined> {
  try {
    const result = await db().send(new UpdateCommand({ ...transitionUpdate(uuid, from, to, fields, condition), ReturnValues: 'ALL_NEW' }));
    return withoutKeys(OrderAheadOrder.from(result.Attributes));
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * The user's own order from `from` to `to` in ONE conditional write, without reading it first (the answer
 * needs only its state): `moved`, or the order as it stood when the condition failed (another user's, in
 * another state), undefined when there is no such order. The order as it stood comes back with the failure
 * (ReturnValuesOnConditionCheckFailure); should it not, it is read consistently.
 */
export async function transitionUsersOrder(
  uuid: string,
  userId: number,
  from: readonly OrderAheadState[],
  to: OrderAheadState,
  fields: Partial<OrderAheadRecord>,
): Promise<{ moved: true } | { moved: false; current: OrderAheadRecord | undefined }> {
  try {
    const update = transitionUpdate(uuid, from, to, fields, equals('user_id', userId));
    await db().send(new UpdateCommand({ ...update, ReturnValues: 'NONE', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
    return { moved: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client leaves the returned item in DynamoDB's own (marshalled) form.
    const returned = (error as { Item?: Record<string, unknown> }).Item;
    if (returned && typeof returned.pk === 'object')
      return { moved: false, current: withoutKeys(OrderAheadOrder.from(unmarshall(returned as Parameters<typeof unmarshall>[0]))) };
    if (returned && typeof returned.pk === 'string') return { moved: false, current: withoutKeys(OrderAheadOrder.from(returned)) };
    return { moved: false, current: await getProposedOrder(uuid) };
  }
}

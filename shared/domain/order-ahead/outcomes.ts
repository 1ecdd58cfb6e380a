/**
 * Where an order-ahead order's outcomes leave the order-ahead area:
 *
 * - the events the user's app receives (docs/events.md): `order_ahead.validated` / `.invalidated` when
 *   validation ends, `order_ahead.completed` when the provider accepted it. These are transaction items:
 *   the writes that change the order's state (orders.ts finishValidation, fulfilment.ts) carry them in the
 *   same TransactWriteItems, so an event exists if and only if its change committed. The app is the one
 *   the order was started through (`app_id`, the user token's app), the resource the order-ahead order.
 * - one structured log line per completion outcome (no user data beyond ids) and a business metric.
 *
 * A rejection is logged and counted; the catalogue has no event for it (issue 17 lists none).
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import { appAudience, orderAheadResource, recordEvent } from '#shared/domain/events/catalogue.ts';
import type { ErrorDetail } from '#shared/errors.ts';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { recordOrderAheadCompletion, type CompletionOutcomeLabel } from '#shared/metrics.ts';
import type { OrderAheadRecord } from './record.ts';
import type { PricedOrder } from './pricing.ts';
import { serializeCompletedOrder, serializePolledOrder } from './serialize.ts';

/** Where the local stack serves the API (scripts/start.ts); every function in AWS has PUBLIC_BASE_URL (infra/stack.ts). */
const LOCAL_BASE_URL = 'http://127.0.0.1:3000';

/**
 * The base of the links in an event's order (order_url, order_completion_url). An event is written outside
 * any request (a workflow step), so the links are built on the configured public address, as the poll's
 * are in AWS.
 */
function eventBaseUrl(): string {
  return (optionalEnv('PUBLIC_BASE_URL') || LOCAL_BASE_URL).replace(/\/$/, '');
}

export type ValidationResult = { priced: PricedOrder } | { errors: ErrorDetail[] };

/**
 * The event of a validation's outcome, for the transaction that records it: `order_ahead.validated` with the
 * order as the poll's 200 shows it, or `order_ahead.invalidated` with the poll's 422 error array. Validation
 * ends once per order and is its first event, so no counter is read.
 */
export function validationEventItems(order: Pick<OrderAheadRecord, 'uuid' | 'app_id'>, outcome: ValidationResult): Promise<TransactItem[]> {
  const resource = orderAheadResource(order.uuid);
  const audience = appAudience(order.app_id);
  if ('priced' in outcome) {
    const data = serializePolledOrder({ uuid: order.uuid, state: 'externally_valid', priced: outcome.priced }, eventBaseUrl()).order;
    return recordEvent('order_ahead.validated', resource, audience, data, { newResource: true });
  }
  const data = { uuid: order.uuid, state: 'externally_invalid', errors: outcome.errors.map((error) => ({ error })) };
  return recordEvent('order_ahead.invalidated', resource, audience, data, { newResource: true });
}

/**
 * The `order_ahead.completed` event, for the transaction that moves the order to `completed`: the order as
 * the completion poll's 200 shows it. `counter` is the order's event counter as read with the settled order
 * (fulfilment.ts), so the event costs no round trip; a rebuilt transaction passes undefined to read it afresh.
 */
export function completionEventItems(completed: OrderAheadRecord, counter: Record<string, unknown> | null | undefined): Promise<TransactItem[]> {
  const data = serializeCompletedOrder(completed, eventBaseUrl()).order;
  return recordEvent(
    'order_ahead.completed',
    orderAheadResource(completed.uuid),
    appAudience(completed.app_id),
    data,
    counter === undefined ? {} : { counter },
  );
}

/** A completion outcome's count and its log line: the order's ids, and what the outcome adds (`details`). */
function completionOutcome(outcome: CompletionOutcomeLabel, order: OrderAheadRecord, details: Record<string, unknown>): void {
  recordOrderAheadCompletion(outcome);
  log('info', `order_ahead.${outcome}`, {
    order_uuid: order.uuid,
    merchant_id: order.priced?.merchant_id,
    location_id: order.priced?.location_id,
    ...details,
  });
}

export function orderAheadCompleted(order: OrderAheadRecord): void {
  completionOutcome('completed', order, { order_number: order.completion?.order_number });
}

export function orderAheadRejected(order: OrderAheadRecord): void {
  completionOutcome('rejected', order, {
    codes: order.rejection?.errors.map((error) => error.code),
    charge_reversed: order.rejection?.charge_reversed,
  });
}

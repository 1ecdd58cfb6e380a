/**
 * Where the completion workflow's outcomes leave the order-ahead area: called once per order, when the
 * provider accepted it (`completed`) and when it was rejected (`rejected`), after the order's state says
 * so. The events issue emits `order_ahead.completed` / `order_ahead.rejected` from here; until then each
 * outcome is one structured log line (no user data beyond ids) and a business metric by outcome.
 */
import { log } from '#shared/log.ts';
import { recordOrderAheadCompletion } from '#shared/metrics.ts';
import type { OrderAheadRecord } from './orders.ts';

export function orderAheadCompleted(order: OrderAheadRecord): void {
  recordOrderAheadCompletion('completed');
  log('info', 'order_ahead.completed', {
    order_uuid: order.uuid,
    merchant_id: order.priced?.merchant_id,
    location_id: order.priced?.location_id,
    order_number: order.completion?.order_number,
  });
}

export function orderAheadRejected(order: OrderAheadRecord): void {
  recordOrderAheadCompletion('rejected');
  log('info', 'order_ahead.rejected', {
    order_uuid: order.uuid,
    merchant_id: order.priced?.merchant_id,
    location_id: order.priced?.location_id,
    codes: order.rejection?.errors.map((error) => error.code),
    charge_reversed: order.rejection?.charge_reversed,
  });
}

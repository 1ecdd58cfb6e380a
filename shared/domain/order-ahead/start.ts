/**
 * Starting an order-ahead order: store it as `externally_validating`, then start its validation
 * (the state machine). If the start itself fails, the order is marked invalid at once so that no
 * order waits for a validation that will never run, and the client gets a 503 to retry.
 */
import { serviceUnavailable } from '#shared/errors.ts';
import { log } from '#shared/log.ts';
import { startValidation } from '#shared/workflows/executions.ts';
import type { Cart } from './cart.ts';
import { createProposedOrder, finishValidation, VALIDATION_FAILED, type OrderAheadRecord } from './orders.ts';

export { orderCompletionUrl, orderUrl } from './serialize.ts';

export async function startOrderAhead(input: { userId: number; appId: number; cart: Cart }): Promise<OrderAheadRecord> {
  const order = await createProposedOrder(input);
  try {
    await startValidation({ order_uuid: order.uuid });
  } catch (error) {
    log('error', 'order ahead validation did not start', { order_uuid: order.uuid, error: (error as Error).message });
    await finishValidation(order.uuid, { errors: [VALIDATION_FAILED] }, order.app_id);
    throw serviceUnavailable('order', 'Orders cannot be checked right now. Please try again in a moment.', 'validation_unavailable', 5);
  }
  return order;
}

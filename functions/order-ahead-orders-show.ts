import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { unprocessableAll } from '#shared/errors.ts';
import { pollOrder, POLL_RETRY_AFTER_SECONDS, VALIDATION_FAILED } from '#shared/domain/order-ahead/orders.ts';
import { serializePolledOrder } from '#shared/domain/order-ahead/serialize.ts';

const params = z.object({ uuid: z.string().check(z.regex(/^[0-9a-f]{32}$/)) });

/** While validating: 202, no body, and when to ask again (the contract's once a second). */
const STILL_VALIDATING = { status: 202, headers: { 'Retry-After': String(POLL_RETRY_AFTER_SECONDS) } };

/**
 * GET /v15/order_ahead/orders/:uuid (order_url of the start): 202 (empty, Retry-After: 1) while validating,
 * however often it is polled (never 429: the iOS SDK polls every 0.5 s and fails on anything but 200/202/422);
 * then 200 with the priced order or 422 with the validation errors, repeated by every later poll. 404 for
 * another user's order.
 */
export const handler = apiHandler('order-ahead-orders-show', { summary: 'Show (poll) a proposed order ahead order', params }, async (request) => {
  const user = requireUser(request);
  const polled = await pollOrder(request.params.uuid, user.userId);
  if (polled.kind === 'early') return STILL_VALIDATING;
  const order = polled.order;
  switch (order.state) {
    case 'externally_validating':
      return STILL_VALIDATING;
    case 'externally_invalid':
      throw unprocessableAll(order.errors ?? [VALIDATION_FAILED]);
    default:
      // Valid, and every state after it: the priced order, with its current state.
      return ok(serializePolledOrder({ ...order, priced: order.priced! }, request.baseUrl));
  }
});

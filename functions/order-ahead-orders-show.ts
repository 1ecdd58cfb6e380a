import * as z from 'zod';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { unprocessableAll } from '#shared/errors.ts';
import { pollOrder, VALIDATION_FAILED } from '#shared/domain/order-ahead/orders.ts';
import { serializePolledOrder } from '#shared/domain/order-ahead/serialize.ts';
import { orderAheadOrderResponse } from '#shared/schemas/order-ahead.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

const params = z.object({ uuid: z.string().regex(/^[0-9a-f]{32}$/) });

/**
 * GET /v15/order_ahead/orders/:uuid: 202 (empty) while validating, 200 with the priced order, 422 with
 * the validation errors; 404 for another user's order; 429 when polled more than once a second.
 */
export const handler = apiHandler('order-ahead-orders-show', { responses: { 200: orderAheadOrderResponse, 202: null, 422: apiErrors }, summary: 'Show (poll) a proposed order ahead order', params }, async (request) => {
  const user = requireUser(request);
  const order = await pollOrder(request.params.uuid, user.userId);
  switch (order.state) {
    case 'externally_validating':
      return { status: 202 };
    case 'externally_invalid':
      throw unprocessableAll(order.errors ?? [VALIDATION_FAILED]);
    case 'externally_valid':
    case 'completed':
      return ok(serializePolledOrder({ ...order, priced: order.priced! }, request.baseUrl));
  }
});

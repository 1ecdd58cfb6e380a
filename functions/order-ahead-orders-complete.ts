import * as z from 'zod';
import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { completeOrderAhead, serializeCompletion } from '#shared/domain/order-ahead/complete.ts';
import type { OrderRecord } from '#shared/domain/orders/record.ts';
import { orderAheadCompletionResponse } from '#shared/schemas/order-ahead.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

const params = z.object({ uuid: z.string().regex(/^[0-9a-f]{32}$/) });

/**
 * POST /v15/order_ahead/orders/:uuid/complete (the poll's order_completion_url): charges the validated
 * order once, through the in-store money path. No body. Idempotency-Key is honoured.
 */
export const handler = apiHandler(
  'order-ahead-orders-complete',
  { responses: { 200: orderAheadCompletionResponse, 409: apiErrors, 422: apiErrors }, summary: 'Complete (pay for) a validated order ahead order', params },
  async (request) => {
    const user = requireUser(request);
    const view = (order: OrderRecord) => serializeCompletion(order, request.baseUrl);
    return idempotentCommit(request, view, (respond) => completeOrderAhead({ uuid: request.params.uuid, userId: user.userId, respond }));
  },
);

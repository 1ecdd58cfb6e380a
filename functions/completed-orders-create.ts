import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { completeProposedOrder } from '#shared/domain/orders/proposals.ts';
import { serializeCompletedOrder } from '#shared/domain/orders/views.ts';
import { completedOrderBody, completedOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/** POST /v15/completed_orders: completes a proposed order, charging the customer the QR code names. */
export const handler = apiHandler(
  'completed-orders-create',
  { responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: completedOrderResponse, 409: apiErrors }, summary: 'Complete a proposed order (in-store)', body: completedOrderBody, bodyObject: 'completed_order' },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotentCommit(request, serializeCompletedOrder, (respond) => completeProposedOrder(merchant.merchantId, request.body.completed_order, respond));
  },
);

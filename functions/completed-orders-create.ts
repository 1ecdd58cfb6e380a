import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { completeProposedOrder } from '#shared/domain/orders/proposals.ts';
import { serializeCompletedOrder } from '#shared/domain/orders/views.ts';
import { completedOrderBody } from '#shared/schemas/money.ts';

/** POST /v15/completed_orders: completes a proposed order, charging the customer the QR code names. */
export const handler = apiHandler(
  'completed-orders-create',
  {
    summary: 'Complete a proposed order (in-store)',
    description:
      'Naturally idempotent (no Idempotency-Key needed): a repeat for the same proposed_order_uuid with the same terms answers the stored completed order (200, same uuid) and charges nothing; with other terms, 422 order/base `differs_from_completed`. ' +
      "Another merchant's location: 401 order/merchant_token; a location that does not exist: 422 order/location_id.",
    body: completedOrderBody,
    bodyObject: 'completed_order',
  },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotentCommit(request, serializeCompletedOrder, (storeResponse) =>
      completeProposedOrder(merchant.merchantId, request.body.completed_order, storeResponse),
    );
  },
);

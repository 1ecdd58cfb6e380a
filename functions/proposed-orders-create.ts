import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { proposeOrder, readProposalParties, serializeProposedOrder } from '#shared/domain/orders/proposals.ts';
import { proposedOrderBody, proposedOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/** POST /v15/proposed_orders: the POS proposes an order and learns the discount the customer can apply. */
export const handler = apiHandler(
  'proposed-orders-create',
  { responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: proposedOrderResponse, 409: apiErrors }, summary: 'Propose an order (in-store)', body: proposedOrderBody, bodyObject: 'proposed_order',
    // The location and the QR code, read beside the token's read (HandlerSpec.prefetch); proposeOrder checks them once the token is admitted.
    prefetch: ({ body }) => readProposalParties(body.proposed_order) },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotent(request, async () => ({ status: 200, body: serializeProposedOrder(await proposeOrder(merchant, request.body.proposed_order, request.prefetched)) }));
  },
);

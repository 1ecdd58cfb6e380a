import { apiHandler, rawId, rawObject, rawString, requireMerchant } from '#shared/http/handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { proposeOrder, readProposalParties, serializeProposedOrder } from '#shared/domain/orders/proposals.ts';
import { proposedOrderBody } from '#shared/schemas/money.ts';
import { PAYMENT_TOKEN_DATA_MAX } from '#shared/schemas/vocabularies.ts';

/** POST /v15/proposed_orders: the POS proposes an order and learns the discount the customer can apply. */
export const handler = apiHandler(
  'proposed-orders-create',
  {
    summary: 'Propose an order (in-store)',
    description: "Another merchant's location: 401 order/merchant_token; a location that does not exist: 422 order/location_id.",
    body: proposedOrderBody,
    bodyObject: 'proposed_order',
    // The location and the QR code, read beside the token's read (HandlerSpec.prefetch) as the body names them
    // before validation; proposeOrder takes them only for the keys its validated body names, once the token is admitted.
    prefetch: ({ body }) => {
      const proposed = rawObject(body, 'proposed_order');
      const locationId = rawId(proposed?.location_id);
      const scanned = rawString(proposed?.payment_token_data, PAYMENT_TOKEN_DATA_MAX);
      return locationId === undefined || scanned === undefined ? undefined : readProposalParties({ location_id: locationId, payment_token_data: scanned });
    },
  },
  async (request) => {
    const merchant = requireMerchant(request);
    return idempotent(request, async () => ({
      status: 200,
      body: serializeProposedOrder(await proposeOrder(merchant, request.body.proposed_order, request.prefetched)),
    }));
  },
);

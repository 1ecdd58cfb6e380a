/** The classic one-step order, served at /v15/orders and /v14/orders (functions/orders-create*.ts). */
import type * as z from '#shared/schemas/zod.ts';
import { ONE_STEP_LOCATION_NOT_FOUND, placeOneStepOrder, readOneStepParties } from '#shared/domain/orders/one-step.ts';
import type { KeyedItems } from '#shared/db/reads.ts';
import { serializeCompletedOrder } from '#shared/domain/orders/views.ts';
import { rawId, rawObject, rawString, requireMerchant, type ApiRequest, type RawRequest } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { oneStepOrderBody } from '#shared/schemas/pos-money.ts';
import { PAYMENT_TOKEN_DATA_MAX } from '#shared/schemas/vocabularies.ts';

export const oneStepOrderSpec = {
  notFound: ONE_STEP_LOCATION_NOT_FOUND,
  description:
    "No natural key: every request is a new order, so a POS that may retry sends an Idempotency-Key (or proposes and completes instead). Another merchant's location: 401 order/merchant_token; a location that does not exist: 404 order/location_id.",
  body: oneStepOrderBody,
  bodyObject: 'order',
  // The location and the QR code, read beside the token's read (HandlerSpec.prefetch) as the body names them
  // before validation; the order takes them only for the keys its validated body names, once the token is admitted.
  prefetch: ({ body }: RawRequest) => {
    const order = rawObject(body, 'order');
    const locationId = rawId(order?.location_id);
    return locationId === undefined
      ? undefined
      : readOneStepParties({ location_id: locationId, payment_token_data: rawString(order?.payment_token_data, PAYMENT_TOKEN_DATA_MAX) });
  },
};

/** Charges the customer (user token beside the merchant's, or the QR code) through the settlement saga, once per Idempotency-Key. */
export async function serveOneStepOrder(request: ApiRequest<z.output<typeof oneStepOrderBody>, undefined, undefined, KeyedItems>) {
  const merchant = requireMerchant(request);
  return idempotentCommit(request, serializeCompletedOrder, (storeResponse) =>
    placeOneStepOrder({ merchant, user: request.credentials.user, request: request.body.order, storeResponse, prefetched: request.prefetched }),
  );
}

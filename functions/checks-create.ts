import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { publishCheck } from '#shared/domain/orders/checks.ts';
import { serializePublishedCheck } from '#shared/domain/orders/published-checks.ts';
import { checkBody } from '#shared/schemas/pos.ts';

/** PUT /v15/checks: the POS publishes an open check and gets its locator and QR code to show (C# SDK CreateRemoteCheckData). */
export const handler = apiHandler(
  'checks-create',
  {
    summary: 'Publish a remote check',
    description: "Another merchant's location: 401 order/merchant_token; a location that does not exist: 422 check/location_id.",
    body: checkBody,
    bodyObject: 'check',
  },
  async (request) => {
    const merchant = requireMerchant(request);
    // The QR code is drawn while the check's write is in flight (publishCheck).
    return ok(await publishCheck(merchant.merchantId, request.body.check, serializePublishedCheck));
  },
);

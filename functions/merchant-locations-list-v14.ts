import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { listMerchantLocations } from '#shared/domain/merchants/locations.ts';
import { MERCHANT_NOT_FOUND, merchantLocationSummaryV14, requireOwnMerchant } from '#shared/domain/merchants/location-views.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ merchant_id: pathId });

/**
 * GET /v14/merchants/:merchant_id/locations — the merchant's own token (Ruby gem, older C# SDK, PowerShell):
 * every location of the merchant, hidden ones too, in id order, not paged (as the v14 docs and the gem say).
 */
export const handler = apiHandler(
  'merchant-locations-list-v14',
  {
    summary: "List a merchant's locations (v14)",
    params,
    notFound: MERCHANT_NOT_FOUND,
  },
  async (request) => {
    const merchant = requireMerchant(request);
    await requireOwnMerchant(merchant.merchantId, request.params.merchant_id);
    return ok((await listMerchantLocations(merchant.merchantId)).map(merchantLocationSummaryV14));
  },
);

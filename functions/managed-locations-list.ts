import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { listMerchantLocations } from '#shared/domain/merchants/locations.ts';
import { serializeManagedLocation } from '#shared/domain/merchants/location-views.ts';

/** GET /v15/managed_locations: every location the merchant token may place orders for, hidden ones included (not paged). */
export const handler = apiHandler('managed-locations-list', { summary: 'List the locations a merchant token manages' }, async (request) => {
  const merchant = requireMerchant(request);
  return ok((await listMerchantLocations(merchant.merchantId)).map(serializeManagedLocation));
});

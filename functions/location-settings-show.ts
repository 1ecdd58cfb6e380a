import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { LOCATION_NOT_FOUND, getMerchantLocation, locationSettingsView } from '#shared/domain/merchants/location-settings.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** GET /v15/merchants/:merchant_id/locations/:location_id (any role): one location of the merchant as it sets it, hidden or not. */
export const handler = apiHandler(
  'location-settings-show',
  {
    summary: 'A location of the merchant as it sets it, hidden or not (any role)',
    description: 'Another merchant\'s location, or an id of none: 404 location/id/not_found. See docs/merchant-api.md, "Locations".',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  async (request) => {
    const actor = requireStaff(request);
    return ok(locationSettingsView(await getMerchantLocation(actor.merchantId, request.params.location_id)));
  },
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { pageAnswer, pageQuery } from '#shared/http/paging.ts';
import { nextLocationsPosition } from '#shared/endpoints/app-locations.ts';
import { listMerchantLocationsPage, locationDetailsV15 } from '#shared/domain/merchants/location-views.ts';
import { FULFILLMENT_TYPES, fulfillmentTypesList } from '#shared/schemas/locations.ts';
import { latitudeQuery, longitudeQuery, optionalQuery, pathId, positiveInteger, requireLatLngTogether } from '#shared/schemas/params.ts';

const params = z.object({ merchant_id: pathId });
const query = z
  .object({
    fulfillment_types: optionalQuery(fulfillmentTypesList),
    page: pageQuery,
    lat: optionalQuery(latitudeQuery),
    lng: optionalQuery(longitudeQuery),
    /** Cursor this API puts in its own next-page links: the last location id of the previous page. */
    after: optionalQuery(positiveInteger('must be a location id')),
  })
  .check(z.superRefine(requireLatLngTogether));

/**
 * GET /v15/merchants/:merchant_id/locations — no credential (iOS sends none; the C# SDK's token is not needed):
 * the merchant's shown locations as details, paged like an app's list (`lat`/`lng` order by distance,
 * `fulfillment_types` filters, every type by default), a Link on every page, 204 past the end, 404 for an
 * unknown merchant.
 */
export const handler = apiHandler('merchant-locations-list', { summary: "List a merchant's locations", paged: true, params, query }, async (request) => {
  const { query } = request;
  const merchantId = request.params.merchant_id;
  const near = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  const page = query.page ?? 1;
  const result = await listMerchantLocationsPage(merchantId, {
    fulfillmentTypes: query.fulfillment_types ?? FULFILLMENT_TYPES,
    near,
    page,
    after: near ? undefined : query.after,
  });
  const now = new Date();
  const path = `/v15/merchants/${merchantId}/locations`;
  return pageAnswer(
    request.baseUrl,
    { items: result.locations, after: (last) => nextLocationsPosition(request.event.queryStringParameters, path, page, near ? undefined : last) },
    (locations) => locations.map((location) => ({ location: locationDetailsV15(location, { baseUrl: request.baseUrl, now }) })),
  );
});

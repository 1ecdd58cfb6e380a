import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { getShownLocation, locationDetailsV14 } from '#shared/domain/merchants/location-views.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });

/** GET /v14/locations/:location_id — no credential: a shown location as iOS and Android v14 read it; hidden or unknown is 404 (empty). */
export const handler = apiHandler('locations-show-v14', { summary: 'Get location details (v14)', params }, async (request) => {
  return ok({ location: locationDetailsV14(await getShownLocation(request.params.location_id), { baseUrl: request.baseUrl }) });
});

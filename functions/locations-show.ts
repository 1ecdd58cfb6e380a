import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { getShownLocation, locationDetailsV15 } from '#shared/domain/merchants/location-views.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });

/** GET /v15/locations/:location_id — no credential: a shown location's details; hidden or unknown is 404 (empty). */
export const handler = apiHandler('locations-show', { summary: 'Get location details', params }, async (request) => {
  return ok({ location: locationDetailsV15(await getShownLocation(request.params.location_id), { baseUrl: request.baseUrl }) });
});

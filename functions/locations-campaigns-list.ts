import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import * as z from '#shared/schemas/zod.ts';
import { locationCampaigns } from '#shared/domain/app-surface/campaigns.ts';

const params = z.object({ location_id: pathId });

/**
 * GET /v15/locations/:location_id/campaigns (A18) — no credential: the public campaigns at a location
 * with the representations each can be shown in (iOS asks for one of those only). An unknown or hidden
 * location is 404 with an empty body; none is 200 `[]`.
 */
export const handler = apiHandler('locations-campaigns-list', { summary: 'List the campaigns at a location', params }, async (request) => {
  const campaigns = await locationCampaigns(request.params.location_id);
  if (!campaigns) throw notFound();
  return ok(campaigns);
});

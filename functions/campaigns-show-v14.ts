import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import { legacyCampaignView, publicCampaign } from '#shared/domain/app-surface/campaigns.ts';

const params = z.object({ id: pathId });

/** GET /v14/campaigns/:id (A20) — no credential: a public campaign in the v14 form; any other id is 404 with an empty body. */
export const handler = apiHandler('campaigns-show-v14', { summary: 'Get a campaign (v14)', params }, async (request) => {
  const campaign = await publicCampaign(request.params.id);
  if (!campaign) throw notFound();
  return ok(await legacyCampaignView(campaign));
});

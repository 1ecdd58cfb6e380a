import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import { publicCampaign } from '#shared/domain/app-surface/campaigns.ts';

const params = z.object({ id: pathId });

/**
 * GET /v14/campaigns/:id/merchants (A22) — no credential: the bare array of merchant ids the campaign
 * applies to. Our campaigns belong to one merchant, so the list is that one id and never needs a page.
 */
export const handler = apiHandler('campaigns-merchants-list', { summary: 'List the merchants a campaign applies to', params }, async (request) => {
  const campaign = await publicCampaign(request.params.id);
  if (!campaign) throw notFound();
  return ok([campaign.merchant_id]);
});

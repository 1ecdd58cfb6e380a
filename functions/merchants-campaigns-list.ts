import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import { merchantCampaigns } from '#shared/domain/app-surface/campaigns.ts';

const params = z.object({ merchant_id: pathId });

/** GET /v15/merchants/:merchant_id/campaigns (A19) — as A18 for a merchant; an unknown merchant is 404 with an empty body. */
export const handler = apiHandler('merchants-campaigns-list', { summary: "List a merchant's campaigns", params }, async (request) => {
  const campaigns = await merchantCampaigns(request.params.merchant_id);
  if (!campaigns) throw notFound();
  return ok(campaigns);
});

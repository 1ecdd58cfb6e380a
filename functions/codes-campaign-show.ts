import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { CODE_LOOKUPS_PER_CLIENT, campaignForCode, legacyCampaignView } from '#shared/domain/app-surface/campaigns.ts';
import { consumeOrRefuse } from '#shared/domain/rate-limits.ts';

const params = z.object({ code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) });

/**
 * GET /v14/codes/:code/campaign (A21) — no credential: the campaign behind a cohort code, so the app can
 * show the offer before the user claims it. Unknown codes are 404 with an empty body. Lookups are counted
 * per client address (60 per 15 minutes, then 429): codes must not be guessable by walking the space.
 */
export const handler = apiHandler('codes-campaign-show', { summary: 'Get the campaign behind a cohort code', params }, async (request) => {
  await consumeOrRefuse(CODE_LOOKUPS_PER_CLIENT, request.sourceIp, {
    object: 'code',
    message: 'Too many code lookups from this client; retry after the Retry-After interval.',
  });
  const campaign = await campaignForCode(request.params.code);
  if (!campaign) throw notFound();
  return ok(await legacyCampaignView(campaign));
});

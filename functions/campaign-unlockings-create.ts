import * as z from 'zod';
import { apiHandler, noContent, requireMerchant } from '#shared/http/handler.ts';
import { unlockCampaign } from '#shared/domain/loyalty/unlocks.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/**
 * POST /v15/campaign_unlockings: a merchant unlocks one of its locked campaigns for a user, by email or
 * user_id, optionally until expires_at. 204 with no body; another merchant's campaign is 401; 409 when
 * concurrent unlockings of the same campaign and user keep winning (its event's sequence; retry).
 */
const body = z.object({
  campaign_unlocking: z.object({
    target_campaign_id: z.number().int().positive(),
    email: z.string().trim().max(254).optional(),
    user_id: z.number().int().positive().optional(),
    expires_at: z.string().max(64).nullable().optional(),
  }),
});

export const handler = apiHandler('campaign-unlockings-create', { responses: { 204: null, 409: apiErrors }, summary: 'Unlock a campaign for a user', body, bodyObject: 'campaign_unlocking' }, async (request) => {
  const merchant = requireMerchant(request);
  await unlockCampaign(merchant.merchantId, request.body.campaign_unlocking);
  return noContent();
});

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, noContent, requireMerchant } from '#shared/http/handler.ts';
import { unlockCampaign } from '#shared/domain/loyalty/unlocks.ts';

/**
 * POST /v15/campaign_unlockings: a merchant unlocks one of its locked campaigns for a user, by email or
 * user_id, optionally until expires_at. 204 with no body; another merchant's campaign is 401; 409 when
 * concurrent unlockings of the same campaign and user keep winning (its event's sequence; retry).
 */
const body = z.object({
  campaign_unlocking: z.object({
    target_campaign_id: z.number().check(z.int(), z.positive()),
    email: z.optional(z.string().check(z.trim(), z.maxLength(254))),
    user_id: z.optional(z.number().check(z.int(), z.positive())),
    expires_at: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  }),
});

export const handler = apiHandler(
  'campaign-unlockings-create',
  { summary: 'Unlock a campaign for a user', body, bodyObject: 'campaign_unlocking' },
  async (request) => {
    const merchant = requireMerchant(request);
    await unlockCampaign(merchant.merchantId, request.body.campaign_unlocking);
    return noContent();
  },
);

import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { CAMPAIGN_NOT_FOUND, campaignView, getMerchantCampaign } from '#shared/domain/campaigns/management.ts';
import { merchantCampaignParams } from '#shared/schemas/campaigns.ts';

/** GET /v15/merchants/:merchant_id/campaigns/:campaign_id (owner, manager): one campaign of the merchant, with its state. */
export const handler = apiHandler(
  'managed-campaigns-show',
  { summary: "One of the merchant's campaigns (owner, manager)", params: merchantCampaignParams, notFound: CAMPAIGN_NOT_FOUND },
  async (request) => {
    const actor = requireStaff(request);
    return ok(campaignView(await getMerchantCampaign(actor.merchantId, request.params.campaign_id)));
  },
);

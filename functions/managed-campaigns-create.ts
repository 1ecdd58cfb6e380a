import { staffWriteHandler } from '#shared/http/management.ts';
import { campaignView, createMerchantCampaign } from '#shared/domain/campaigns/management.ts';
import { campaignCreateBody, merchantCampaignsParams } from '#shared/schemas/campaigns.ts';

/** POST /v15/merchants/:merchant_id/campaigns (owner): a campaign of any kind but legacy, through the loyalty engine's own creation. */
export const handler = staffWriteHandler(
  'managed-campaigns-create',
  {
    summary: 'Create a campaign (owner)',
    description:
      "Any kind the loyalty engine runs but `legacy` (the operators'): each kind's requirement is required (422 naming it), a value campaign or one requiring opt-in needs its cohort code. A cohort code in use: 422 `taken`; the merchant's 201st campaign: 422 `too_many`. See docs/merchant-api.md and docs/loyalty.md.",
    body: campaignCreateBody,
    bodyObject: 'campaign',
    params: merchantCampaignsParams,
  },
  campaignView,
  (request, { actor, context, storeResponse }) => createMerchantCampaign(actor.merchantId, request.body.campaign, context, storeResponse),
);

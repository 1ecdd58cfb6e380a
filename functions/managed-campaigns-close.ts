import { staffWriteHandler } from '#shared/http/management.ts';
import { CAMPAIGN_NOT_FOUND, campaignView, closeMerchantCampaign } from '#shared/domain/campaigns/management.ts';
import { campaignCloseBody, merchantCampaignParams } from '#shared/schemas/campaigns.ts';

/** POST /v15/merchants/:merchant_id/campaigns/:campaign_id/close (owner): now, or at a later time; closing a closed campaign answers it. */
export const handler = staffWriteHandler(
  'managed-campaigns-close',
  {
    summary: 'Close a campaign (owner)',
    description:
      'Without a body (or `{}`) the campaign closes now; `{"campaign": {"closes_at": ...}}` closes it at that future time, never later than its end. A closed campaign earns and can be claimed no more; the rewards users hold stay spendable. A closed campaign answers as it is. See docs/merchant-api.md.',
    body: campaignCloseBody,
    bodyObject: 'campaign',
    params: merchantCampaignParams,
    notFound: CAMPAIGN_NOT_FOUND,
  },
  campaignView,
  (request, { actor, context, storeResponse }) =>
    closeMerchantCampaign(actor.merchantId, request.params.campaign_id, request.body?.campaign?.closes_at, context, storeResponse),
);

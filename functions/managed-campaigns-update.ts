import { staffWriteHandler } from '#shared/http/management.ts';
import { CAMPAIGN_NOT_FOUND, campaignView, updateMerchantCampaign } from '#shared/domain/campaigns/management.ts';
import { campaignUpdateBody, merchantCampaignParams } from '#shared/schemas/campaigns.ts';

/** PUT /v15/merchants/:merchant_id/campaigns/:campaign_id (owner): how the campaign reads, and a later end; its economics stay. */
export const handler = staffWriteHandler(
  'managed-campaigns-update',
  {
    summary: 'Edit a campaign (owner)',
    description:
      "Title, description, reward title and article, item and point labels, and a later `closes_at`. The fields users' progress and rewards were computed under (kind, requirements, amounts, item rules, goals, period, opt-in, lock, tags, code, claims, hours) are sent only as they are, else 422 `not_editable`: close the campaign and create a new one. See docs/merchant-api.md.",
    body: campaignUpdateBody,
    bodyObject: 'campaign',
    params: merchantCampaignParams,
    notFound: CAMPAIGN_NOT_FOUND,
  },
  campaignView,
  (request, { actor, context, storeResponse }) =>
    updateMerchantCampaign(actor.merchantId, request.params.campaign_id, request.body.campaign, context, storeResponse),
);

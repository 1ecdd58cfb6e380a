import { staffListHandler } from '#shared/http/management-lists.ts';
import { campaignPosition, campaignView, isCampaignCursor, listCampaigns } from '#shared/domain/campaigns/management.ts';
import { merchantCampaignsParams } from '#shared/schemas/campaigns.ts';

/** GET /v15/merchants/:merchant_id/all_campaigns (owner, manager): every campaign of the merchant by id, with its state; paged by Link, 204 past the end. */
export const handler = staffListHandler(
  'managed-campaigns-list',
  {
    summary: "List the merchant's campaigns, open, scheduled and closed (owner, manager)",
    description:
      'Every campaign of the merchant by id, 50 a page, each with its `state` now. The public `GET /v15/merchants/{merchant_id}/campaigns` lists what apps may show. See docs/merchant-api.md.',
    params: merchantCampaignsParams,
  },
  {
    collection: 'all_campaigns',
    read: listCampaigns,
    // The cursor is the last campaign's place in the merchant's catalog.
    sortKey: campaignPosition,
    isSortKey: isCampaignCursor,
    // One "now" for the whole page: every campaign's state as of the same moment.
    render: (shown) => {
      const now = new Date();
      return shown.map((campaign) => campaignView(campaign, now));
    },
  },
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { cursorPosition, cursorQuery, pageAnswer, pageQuery, requireReachablePage } from '#shared/http/paging.ts';
import { campaignPosition, campaignView, isCampaignCursor, listCampaigns } from '#shared/domain/campaigns/management.ts';
import { merchantCampaignsParams } from '#shared/schemas/campaigns.ts';

const query = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last campaign's place in the merchant's catalog).
  cursor: cursorQuery(isCampaignCursor),
});

/** GET /v15/merchants/:merchant_id/all_campaigns (owner, manager): every campaign of the merchant by id, with its state; paged by Link, 204 past the end. */
export const handler = apiHandler(
  'managed-campaigns-list',
  {
    summary: "List the merchant's campaigns, open, scheduled and closed (owner, manager)",
    description:
      'Every campaign of the merchant by id, 50 a page, each with its `state` now. The public `GET /v15/merchants/{merchant_id}/campaigns` lists what apps may show. See docs/merchant-api.md.',
    paged: true,
    params: merchantCampaignsParams,
    query,
  },
  async (request) => {
    const actor = requireStaff(request);
    requireReachablePage(request.query);
    const page = request.query.page ?? 1;
    const campaigns = await listCampaigns(actor.merchantId, { cursor: request.query.cursor, page });
    const now = new Date();
    return pageAnswer(
      request.baseUrl,
      { items: campaigns, after: (last) => cursorPosition(`/v15/merchants/${actor.merchantId}/all_campaigns`, page, campaignPosition(last)) },
      (shown) => shown.map((campaign) => campaignView(campaign, now)),
    );
  },
);

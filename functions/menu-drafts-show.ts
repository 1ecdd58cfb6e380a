import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { LOCATION_NOT_FOUND } from '#shared/domain/merchants/location-settings.ts';
import { menuDraftView, readMenuDraft } from '#shared/domain/order-ahead/menu-drafts.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** GET /v15/merchants/:merchant_id/locations/:location_id/menu_draft (any role): the draft, else the published menu, and the version to send back. */
export const handler = apiHandler(
  'menu-drafts-show',
  {
    summary: "A location's order-ahead menu draft, else its published menu, with the draft's version (any role)",
    description:
      'Apps never read the draft: they read the published menu (GET /v15/order_ahead/locations/{location_id}/menu) until the draft is published. Another merchant\'s location, or an id of none: 404. See docs/merchant-api.md, "Menus".',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  async (request) => ok(menuDraftView(await readMenuDraft(requireStaff(request), request.params.location_id))),
);

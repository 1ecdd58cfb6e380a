import { staffWriteHandler } from '#shared/http/management.ts';
import { LOCATION_NOT_FOUND } from '#shared/domain/merchants/location-settings.ts';
import { menuDraftSaveBody, menuDraftView, saveMenuDraft } from '#shared/domain/order-ahead/menu-drafts.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** PUT /v15/merchants/:merchant_id/locations/:location_id/menu_draft (owner, manager): replaces the draft whole. */
export const handler = staffWriteHandler(
  'menu-drafts-update',
  {
    summary: "Replace a location's order-ahead menu draft whole (owner, manager)",
    description:
      'The menu is the schema of the operators\' `create-menu` file (categories, items, option groups, upsells, windows), bounded as docs/merchant-api.md, "Menus" says. `version` is the draft\'s as read (GET): a draft saved, published or discarded since is 409 `menu_draft_changed` with Retry-After, nothing written. Apps do not see the draft until it is published.',
    body: menuDraftSaveBody,
    bodyObject: 'menu_draft',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  menuDraftView,
  (request, staff) => saveMenuDraft({ ...staff, locationId: request.params.location_id, ...request.body.menu_draft }),
);

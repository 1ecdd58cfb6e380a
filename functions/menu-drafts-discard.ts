import { staffWriteHandler } from '#shared/http/management.ts';
import { LOCATION_NOT_FOUND } from '#shared/domain/merchants/location-settings.ts';
import { discardMenuDraft, menuDraftVersionBody, menuDraftView } from '#shared/domain/order-ahead/menu-drafts.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** POST /v15/merchants/:merchant_id/locations/:location_id/menu_draft/discard (owner, manager): the draft is thrown away. */
export const handler = staffWriteHandler(
  'menu-drafts-discard',
  {
    summary: 'Discard the menu draft; the published menu stays as it is (owner, manager)',
    description:
      '`version` is the draft\'s as read: a save, publish or discard since is 409 `menu_draft_changed` with Retry-After; no draft: 422 `no_draft`. See docs/merchant-api.md, "Menus".',
    body: menuDraftVersionBody,
    bodyObject: 'menu_draft',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  menuDraftView,
  (request, staff) => discardMenuDraft({ ...staff, locationId: request.params.location_id, ...request.body.menu_draft }),
);

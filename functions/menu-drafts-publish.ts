import { staffWriteHandler } from '#shared/http/management.ts';
import { LOCATION_NOT_FOUND } from '#shared/domain/merchants/location-settings.ts';
import { menuDraftVersionBody, menuDraftView, publishMenuDraft } from '#shared/domain/order-ahead/menu-drafts.ts';
import { merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** POST /v15/merchants/:merchant_id/locations/:location_id/menu_draft/publish (owner, manager): the draft becomes the menu apps read. */
export const handler = staffWriteHandler(
  'menu-drafts-publish',
  {
    summary: 'Publish the menu draft: apps read it from now on, under the same menu id (owner, manager)',
    description:
      'One transaction: apps read the menu before or the menu after, never a half-edited one. The draft is validated again (422). `version` is the draft\'s as read: a save, publish or discard since is 409 `menu_draft_changed` with Retry-After; no draft: 422 `no_draft`. See docs/merchant-api.md, "Menus".',
    body: menuDraftVersionBody,
    bodyObject: 'menu_draft',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  menuDraftView,
  (request, staff) => publishMenuDraft({ ...staff, locationId: request.params.location_id, ...request.body.menu_draft }),
);

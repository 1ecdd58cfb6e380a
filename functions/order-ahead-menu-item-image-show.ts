import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { imageQuery, redirectToImage } from '#shared/endpoints/images.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ menu_id: pathId, item_id: pathId });

/**
 * GET /v15/order_ahead/menus/:menu_id/items/:item_id/image (O2) — no credential: a menu item's picture
 * (420x300, 320x180 or 133x92 at densities 1, 1.5, 2, 3); the menu's item `image_url` is this path.
 */
export const handler = apiHandler(
  'order-ahead-menu-item-image-show',
  { summary: 'Redirect to a menu item image', params, query: imageQuery },
  async (request) => redirectToImage({ kind: 'menu-item', menuId: request.params.menu_id, itemId: request.params.item_id }, request.query),
);

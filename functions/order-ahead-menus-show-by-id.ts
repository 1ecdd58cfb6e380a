import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { getMenuById } from '#shared/domain/order-ahead/menu.ts';
import { serializeMenu } from '#shared/domain/order-ahead/menu-view.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ menu_id: pathId });

/**
 * GET /v15/order_ahead/menus/:menu_id (what `menu_url`, `delivery_menu_url` and `pickup_menu_url` point at):
 * public, the same menu as the location's menu path; 404 (empty) for an unknown id.
 */
export const handler = apiHandler('order-ahead-menus-show-by-id', { summary: 'Get an order ahead menu by its id', params }, async (request) => {
  const menu = await getMenuById(request.params.menu_id);
  if (!menu) throw notFound();
  // Same caching as the location's menu path (functions/order-ahead-menus-show.ts).
  return ok(serializeMenu(menu, request.baseUrl), { 'Cache-Control': 'public, max-age=60' });
});

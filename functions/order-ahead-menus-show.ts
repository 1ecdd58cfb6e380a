import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { getMenu } from '#shared/domain/order-ahead/menu.ts';
import { serializeMenu } from '#shared/domain/order-ahead/menu-view.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });

/** GET /v15/order_ahead/locations/:location_id/menu: public, like the location list it is linked from. */
export const handler = apiHandler('order-ahead-menus-show', { summary: "Get a location's order ahead menu", params }, async (request) => {
  const menu = await getMenu(request.params.location_id);
  if (!menu) throw notFound();
  // Menus change rarely and are the same for everyone: let clients and caches keep them briefly.
  return ok(serializeMenu(menu, request.baseUrl), { 'Cache-Control': 'public, max-age=60' });
});

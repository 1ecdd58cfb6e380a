import { apiHandler, noContent, ok, requireUser } from '#shared/http/handler.ts';
import { unprocessable } from '#shared/errors.ts';
import { getMenu } from '#shared/domain/order-ahead/menu.ts';
import { eligibleUpsell, ordersCountForSegments, serializeUpsellSuggestion } from '#shared/domain/order-ahead/upsells.ts';
import { cartBodySchema } from '#shared/schemas/order-ahead.ts';

/** POST /v15/upsells: the cart as for a start; 200 with the first eligible upsell, 204 when none is. */
export const handler = apiHandler('upsells-create', { summary: 'Show items to upsell', body: cartBodySchema, bodyObject: 'order' }, async (request) => {
  const user = requireUser(request);
  const order = request.body.order;
  if (order.location_id === undefined || order.location_id === null) {
    throw unprocessable('order', 'location_id', "Location can't be blank", 'missing');
  }
  const menu = await getMenu(order.location_id);
  if (!menu) return noContent();
  const candidate = eligibleUpsell(menu, {
    cartItemIds: (order.items ?? []).map((line) => line.item.id),
    ordersCount: await ordersCountForSegments(menu, user.userId),
    exclude: order.upsell_ids ?? [],
  });
  return candidate ? ok(serializeUpsellSuggestion(candidate)) : noContent();
});

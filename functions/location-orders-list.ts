import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { cursorPosition, cursorQuery, pageAnswer, pageQuery, requireReachablePage } from '#shared/http/paging.ts';
import { isLocationOrdersCursor, listLocationOrders, locationOrderColumns } from '#shared/domain/orders/merchant-orders.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });
const query = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's index key).
  cursor: cursorQuery(isLocationOrdersCursor),
});

/** GET /v14/locations/:location_id/orders: the location's orders, newest first, paged by Link (every page has one); 204 past the end. */
export const handler = apiHandler('location-orders-list', { summary: "List a location's orders (merchant)", paged: true, params, query }, async (request) => {
  const merchant = requireMerchant(request);
  requireReachablePage(request.query);
  const locationId = request.params.location_id;
  const page = request.query.page ?? 1;
  const orders = await listLocationOrders(merchant.merchantId, locationId, { cursor: request.query.cursor, page });
  return pageAnswer(request.baseUrl, { items: orders, after: (last) => cursorPosition(`/v14/locations/${locationId}/orders`, page, last.position) }, (shown) =>
    shown.map((entry) => ({ order: locationOrderColumns(entry.order) })),
  );
});

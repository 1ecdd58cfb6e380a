import * as z from 'zod';
import { apiHandler, noContent, ok, requireMerchant } from '#shared/http/handler.ts';
import { cursorQuery, encodeCursor, nextPageLink, pageQuery } from '#shared/http/paging.ts';
import { isLocationOrdersCursor, listLocationOrders, locationOrderColumns } from '#shared/domain/orders/merchant-orders.ts';
import { pathId } from '#shared/schemas/params.ts';
import { locationOrderList } from '#shared/schemas/pos.ts';

const params = z.object({ location_id: pathId });
const query = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's index key).
  cursor: cursorQuery(isLocationOrdersCursor),
});

/** GET /v14/locations/:location_id/orders: the location's orders, newest first, paged by Link; 204 past the end. */
export const handler = apiHandler(
  'location-orders-list',
  { responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: locationOrderList, 204: null }, summary: "List a location's orders (merchant)", params, query },
  async (request) => {
    const merchant = requireMerchant(request);
    const locationId = request.params.location_id;
    const page = request.query.page ?? 1;
    const result = await listLocationOrders(merchant.merchantId, locationId, { cursor: request.query.cursor, page });
    if (result.orders.length === 0) return noContent();
    const next = result.nextCursor
      ? nextPageLink(request.baseUrl, `/v14/locations/${locationId}/orders`, new URLSearchParams({ page: String(page + 1), cursor: encodeCursor(result.nextCursor) }))
      : {};
    return ok(result.orders.map((order) => ({ order: locationOrderColumns(order) })), next);
  },
);

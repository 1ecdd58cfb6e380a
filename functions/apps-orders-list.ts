import * as z from 'zod';
import { apiHandler, noContent, ok, requireUser } from '#shared/http/handler.ts';
import { cursorQuery, encodeCursor, nextPageLink, pageQuery } from '#shared/http/paging.ts';
import { isOrdersCursor, listAppOrders } from '#shared/domain/orders/user-orders.ts';
import { userOrderListColumns } from '#shared/domain/orders/views.ts';
import { userOrderList } from '#shared/schemas/money.ts';

const query = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's index key).
  cursor: cursorQuery(isOrdersCursor),
});

/** GET /v15/apps/orders: the user's orders through the requesting app, newest first, paged by Link. */
export const handler = apiHandler('apps-orders-list', { responses: { 200: userOrderList, 204: null }, summary: "List the user's orders placed through the requesting app", query }, async (request) => {
  const user = requireUser(request);
  const page = request.query.page ?? 1;
  const result = await listAppOrders(user.appId, user.userId, { cursor: request.query.cursor, page });
  if (result.orders.length === 0) return noContent();
  const next = result.nextCursor ? nextPageLink(request.baseUrl, '/v15/apps/orders', new URLSearchParams({ page: String(page + 1), cursor: encodeCursor(result.nextCursor) })) : {};
  return ok(result.orders.map((order) => ({ order: userOrderListColumns(order) })), next);
});

import * as z from 'zod';
import { schema } from '#shared/schemas/registry.ts';
import { cursorQuery, encodeCursor, nextPageLink, pageQuery } from '#shared/http/paging.ts';
import { noContent, ok, type ApiResponse } from '#shared/http/handler.ts';
import { isOrdersCursor, listAppOrders } from '#shared/domain/orders/user-orders.ts';
import { userOrderListColumns } from '#shared/domain/orders/views.ts';
import type { UserPrincipal } from '#shared/auth/tokens.ts';

/**
 * The user's orders through the token's app, newest first, one page at a time: the contract's
 * GET /v15/apps/orders and its SDK forms (A30 v14 by app id, A31 the Ruby gem's /v15/users/orders).
 */
export const userOrdersQuery = /* @__PURE__ */ schema(() => z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's index key).
  cursor: cursorQuery(isOrdersCursor),
}));

/**
 * `empty` says how a page with no orders answers: 204 where the client reads that as the end, `[]`
 * where it maps the body (the Ruby gem calls `map` on it: a 204's nil would raise).
 */
export async function serveUserOrders(user: UserPrincipal, query: z.output<typeof userOrdersQuery>, link: { baseUrl: string; path: string }, empty: 'no-content' | 'empty-list'): Promise<ApiResponse> {
  const page = query.page ?? 1;
  const result = await listAppOrders(user.appId, user.userId, { cursor: query.cursor, page });
  if (result.orders.length === 0) return empty === 'no-content' ? noContent() : ok([]);
  const next = result.nextCursor ? nextPageLink(link.baseUrl, link.path, new URLSearchParams({ page: String(page + 1), cursor: encodeCursor(result.nextCursor) })) : {};
  return ok(result.orders.map((order) => ({ order: userOrderListColumns(order) })), next);
}

import * as z from '#shared/schemas/zod.ts';
import { cursorPosition, cursorQuery, pageAnswer, pageQuery, requireReachablePage, type EndOfList } from '#shared/http/paging.ts';
import type { ApiResponse } from '#shared/http/handler.ts';
import { isOrdersCursor, listAppOrders } from '#shared/domain/orders/user-orders.ts';
import { userOrderListColumns } from '#shared/domain/orders/views.ts';
import type { UserPrincipal } from '#shared/auth/tokens.ts';

/**
 * The user's orders through the token's app, newest first, one page at a time: the contract's
 * GET /v15/apps/orders and its SDK forms (A30 v14 by app id, A31 the Ruby gem's /v15/users/orders).
 */
export const userOrdersQuery = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last order's index key).
  cursor: cursorQuery(isOrdersCursor),
});

/**
 * `end` says how the position after the last order answers: 204 where the client reads that as the end,
 * `[]` where it maps the body (the Ruby gem calls `map` on it: a 204's nil would raise).
 */
export async function serveUserOrders(
  user: UserPrincipal,
  query: z.output<typeof userOrdersQuery>,
  link: { baseUrl: string; path: string },
  end: EndOfList,
): Promise<ApiResponse> {
  requireReachablePage(query);
  const page = query.page ?? 1;
  const orders = await listAppOrders(user.appId, user.userId, { cursor: query.cursor, page });
  return pageAnswer(
    link.baseUrl,
    { items: orders, after: (last) => cursorPosition(link.path, page, last.position) },
    (shown) => shown.map((entry) => ({ order: userOrderListColumns(entry.order) })),
    end,
  );
}

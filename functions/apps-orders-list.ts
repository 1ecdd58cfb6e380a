import * as z from 'zod';
import { keys } from '#shared/db/keys.ts';
import { apiHandler, noContent, ok, requireUser } from '#shared/http/handler.ts';
import { listAppOrders, userOrderListColumns } from '#shared/domain/orders.ts';
import { userOrderList } from '#shared/schemas/money.ts';

const query = z.object({
  page: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '' || value === 'null') return undefined;
      if (!/^\d+$/.test(value) || Number(value) < 1) {
        context.addIssue({ code: 'custom', message: 'must be a positive integer' });
        return z.NEVER;
      }
      return Number(value);
    }),
  // Opaque position from a previous page's Link (base64url of the last order's index key).
  cursor: z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const decoded = Buffer.from(value, 'base64url').toString('utf8');
      if (!keys.isUserOrdersSortKey(decoded)) {
        context.addIssue({ code: 'custom', message: 'is not a valid position' });
        return z.NEVER;
      }
      return decoded;
    }),
});

/** GET /v15/apps/orders: the user's orders through the requesting app, newest first, paged by Link. */
export const handler = apiHandler('apps-orders-list', { responses: { 200: userOrderList, 204: null }, summary: "List the user's orders placed through the requesting app", query }, async (request) => {
  const user = requireUser(request);
  const page = request.query.page ?? 1;
  const result = await listAppOrders(user.appId, user.userId, { cursor: request.query.cursor, page });
  if (result.orders.length === 0) return noContent();
  const headers: Record<string, string> = {};
  if (result.nextCursor) {
    const next = new URL(`${request.baseUrl}/v15/apps/orders`);
    next.searchParams.set('page', String(page + 1));
    next.searchParams.set('cursor', Buffer.from(result.nextCursor, 'utf8').toString('base64url'));
    headers.Link = `<${next.toString()}>; rel="next"`;
  }
  return ok(result.orders.map((order) => ({ order: userOrderListColumns(order) })), headers);
});

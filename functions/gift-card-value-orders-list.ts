import { apiHandler, noContent, ok, requireUser } from '#shared/http/handler.ts';
import { cursorQuery, encodeCursor, nextPageLink } from '#shared/http/paging.ts';
import { isGiftCardOrdersCursor, listBuyerGiftCardOrders, serializeBuyerGiftCardOrder } from '#shared/domain/money/gift-card-orders.ts';
import * as z from '#shared/schemas/zod.ts';

const query = z.object({ cursor: cursorQuery(isGiftCardOrdersCursor) });

/**
 * GET /v15/users/gift_card_value_orders: the gift card orders the user bought, newest first, each with its
 * state (`pending` while the recipient's email has no account: docs/money.md, "Held gifts"). Every page with
 * orders has a Link to the next; a page past the end is 204 (follow Link until 204).
 */
export const handler = apiHandler(
  'gift-card-value-orders-list',
  { summary: 'List the gift card orders the user bought (delivered, pending, refunded)', query, paged: true },
  async (request) => {
    const user = requireUser(request);
    const page = await listBuyerGiftCardOrders(user.userId, request.query.cursor);
    if (page.orders.length === 0) return noContent();
    const next = page.nextCursor
      ? nextPageLink(request.baseUrl, '/v15/users/gift_card_value_orders', new URLSearchParams({ cursor: encodeCursor(page.nextCursor) }))
      : {};
    return ok(page.orders.map(serializeBuyerGiftCardOrder), next);
  },
);

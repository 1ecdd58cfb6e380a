import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import { serveUserOrders, userOrdersQuery } from '#shared/endpoints/user-orders.ts';

const params = z.object({ app_id: pathId });

/**
 * GET /v14/apps/:app_id/orders (A30, Android, deprecated): the contract's GET /v15/apps/orders by app id.
 * The id must be the token's own app (a token sees orders only through the app it was granted to):
 * any other is 404 with an empty body. 204 past the last page.
 */
export const handler = apiHandler(
  'apps-orders-list-v14',
  { summary: "List the user's orders through an app (v14)", paged: true, query: userOrdersQuery, params },
  async (request) => {
    const user = requireUser(request);
    if (request.params.app_id !== user.appId) throw notFound();
    return serveUserOrders(user, request.query, { baseUrl: request.baseUrl, path: `/v14/apps/${user.appId}/orders` }, 'no-content');
  },
);

import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { serveUserOrders, userOrdersQuery } from '#shared/endpoints/user-orders.ts';

/** GET /v15/apps/orders: the user's orders through the requesting app, newest first, paged by Link. */
export const handler = apiHandler(
  'apps-orders-list',
  { summary: "List the user's orders placed through the requesting app", paged: true, query: userOrdersQuery },
  async (request) => serveUserOrders(requireUser(request), request.query, { baseUrl: request.baseUrl, path: '/v15/apps/orders' }, 'no-content'),
);

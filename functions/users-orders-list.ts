import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { serveUserOrders, userOrdersQuery } from '#shared/endpoints/user-orders.ts';

/**
 * GET /v15/users/orders (A31, the Ruby gem's `users.orders.list`): the user's orders through the token's
 * app, newest first. No orders is 200 `[]`, never 204 (the gem maps the body). The gem reads one page; the
 * Link of the next one is there for clients that follow it.
 */
export const handler = apiHandler(
  'users-orders-list',
  { summary: "List the user's orders (Ruby gem form)", paged: true, query: userOrdersQuery },
  async (request) => serveUserOrders(requireUser(request), request.query, { baseUrl: request.baseUrl, path: '/v15/users/orders' }, 'empty-list'),
);

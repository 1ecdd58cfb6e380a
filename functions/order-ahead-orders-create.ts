import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { unprocessableAll } from '#shared/errors.ts';
import { cartProblems, toCart } from '#shared/domain/order-ahead/cart.ts';
import { orderUrl, startOrderAhead } from '#shared/domain/order-ahead/start.ts';
import { cartBodySchema } from '#shared/schemas/order-ahead.ts';

/** POST /v15/order_ahead/orders: stores the cart, starts its validation, answers where to poll. */
export const handler = apiHandler(
  'order-ahead-orders-create',
  { summary: 'Start an order ahead order', body: cartBodySchema, bodyObject: 'order' },
  async (request) => {
    const user = requireUser(request);
    const problems = cartProblems(request.body, { requireItems: true });
    if (problems.length > 0) throw unprocessableAll(problems);
    const order = await startOrderAhead({ userId: user.userId, appId: user.appId, cart: toCart(request.body) });
    return ok({ order: { order_url: orderUrl(request.baseUrl, order.uuid), state: order.state, uuid: order.uuid } });
  },
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserOrder } from '#shared/domain/orders/user-orders.ts';
import { serializeUserOrderDetail } from '#shared/domain/orders/views.ts';

const params = z.object({ uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/** GET /v15/orders/:uuid: one of the user's own orders, with items. */
export const handler = apiHandler('orders-show', { summary: 'Get user-oriented order details', params }, async (request) => {
  const user = requireUser(request);
  return ok(serializeUserOrderDetail(await getUserOrder(user.userId, request.params.uuid)));
});

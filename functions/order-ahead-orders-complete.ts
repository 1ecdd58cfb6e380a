import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireUser } from '#shared/http/handler.ts';
import { serializeCompletionStatus, submitCompletion } from '#shared/domain/order-ahead/completion.ts';

const params = z.object({ uuid: z.string().check(z.regex(/^[0-9a-f]{32}$/)) });

/**
 * POST /v15/order_ahead/orders/:uuid/complete (the poll's order_completion_url), no body: hands the validated
 * order to the completion workflow (charge once, forward to the merchant's ordering provider) and answers 202
 * at once with where to poll. A repeated or concurrent POST answers the order's current status: it never
 * charges twice. 404 another user's order; 422 an order that is not valid, or was rejected; 503 when the
 * workflow cannot be started (nothing was charged).
 */
export const handler = apiHandler(
  'order-ahead-orders-complete',
  { summary: 'Complete (pay for and submit) a validated order ahead order', params },
  async (request) => {
    const user = requireUser(request);
    const order = await submitCompletion(request.params.uuid, user.userId);
    return { status: 202, body: serializeCompletionStatus(order, request.baseUrl) };
  },
);

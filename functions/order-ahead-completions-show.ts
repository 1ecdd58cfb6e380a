import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { notFound, unprocessableAll } from '#shared/errors.ts';
import { pollCompletion, serializeCompletedOrder, serializeCompletionStatus } from '#shared/domain/order-ahead/completion.ts';
import { POLL_RETRY_AFTER_SECONDS } from '#shared/domain/order-ahead/orders.ts';

const params = z.object({ uuid: z.string().check(z.regex(/^[0-9a-f]{32}$/)) });

/**
 * GET /v15/order_ahead/orders/:uuid/complete (the order_url of the completion): 202 with the status and
 * Retry-After while the workflow works (never 429), 200 with the completed order once the provider took it,
 * 422 with the reason once rejected; 404 for an order never submitted or another user's.
 */
export const handler = apiHandler('order-ahead-completions-show', { summary: 'Show (poll) a completed order ahead order', params }, async (request) => {
  const user = requireUser(request);
  const polled = await pollCompletion(request.params.uuid, user.userId);
  if (!polled) throw notFound();
  switch (polled.kind) {
    case 'in_progress':
      return { status: 202, body: serializeCompletionStatus(polled.order, request.baseUrl), headers: { 'Retry-After': String(POLL_RETRY_AFTER_SECONDS) } };
    case 'completed':
      return ok(serializeCompletedOrder(polled.order, request.baseUrl));
    case 'rejected':
      throw unprocessableAll(polled.errors);
  }
});

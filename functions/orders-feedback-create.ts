import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireAnyPermission, requireUser } from '#shared/http/handler.ts';
import { ORDER_SCREEN_PERMISSIONS, ownOrder } from '#shared/endpoints/app-surface.ts';
import { notFound } from '#shared/errors.ts';
import { recordFeedback } from '#shared/domain/app-surface/interstitials.ts';
import { feedbackRequest } from '#shared/schemas/app-surface.ts';

const params = z.object({ uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/**
 * POST /v15/orders/:uuid/feedback — the user's answer to a feedback interstitial for their own order.
 * iOS sends the rating as a string, Android as a number; both are kept as a number (or null). 200 with
 * no body, as the SDKs expect; another user's order is 404.
 */
export const handler = apiHandler(
  'orders-feedback-create',
  { body: feedbackRequest, params, summary: 'Answer the feedback interstitial of an order' },
  async (request) => {
    const user = requireUser(request);
    requireAnyPermission(user, ORDER_SCREEN_PERMISSIONS);
    const order = await ownOrder(user.userId, request.params.uuid, () => notFound());
    await recordFeedback(order, request.body);
    return { status: 200 };
  },
);

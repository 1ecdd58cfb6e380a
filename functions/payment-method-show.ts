import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { paymentMethod } from '#shared/domain/cards/payment-methods.ts';

/** GET /v15/payment_method (iOS): the card the user is billed with and their billing preference; 404 (empty) without one. */
export const handler = apiHandler('payment-method-show', { summary: 'The payment method the user is billed with' }, async (request) =>
  ok(await paymentMethod(requireUser(request))),
);

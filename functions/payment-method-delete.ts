import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { deactivatePaymentMethod } from '#shared/domain/cards/payment-methods.ts';

/** DELETE /v15/payment_method (iOS): deactivates the billed card (as deleting it); 200 with no body, 404 (empty) without one. */
export const handler = apiHandler('payment-method-delete', { summary: 'Deactivate the payment method the user is billed with' }, async (request) => {
  await deactivatePaymentMethod(requireUser(request).userId);
  return ok(undefined);
});

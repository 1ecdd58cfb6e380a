import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { setPaymentPreference } from '#shared/domain/cards/payment-methods.ts';
import { paymentPreferenceBody } from '#shared/schemas/credit-cards.ts';

/** PUT /v15/apps/payment_preference (iOS): preload (with its amount) or monthly billing; 200 with no body (iOS does not read one). */
export const handler = apiHandler(
  'payment-preference-update',
  { summary: "Choose the user's billing preference", body: paymentPreferenceBody, bodyObject: 'payment_preference' },
  async (request) => {
    await setPaymentPreference(requireUser(request).userId, request.body.payment_preference);
    return ok(undefined);
  },
);

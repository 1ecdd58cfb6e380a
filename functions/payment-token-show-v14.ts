import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { NOT_PAYMENT_ELIGIBLE, paymentTokenForApp } from '#shared/domain/cards/payment-eligibility.ts';

/** GET /v14/payment_token: as v15, but a user with no card to pay with is the documented 404 `no_credit_card`. */
export const handler = apiHandler(
  'payment-token-show-v14',
  { notFound: NOT_PAYMENT_ELIGIBLE, summary: "Get the user's QR code data (payment token), v14: 404 when the user cannot pay" },
  async (request) => ok(await paymentTokenForApp(requireUser(request).userId, 'v14')),
);

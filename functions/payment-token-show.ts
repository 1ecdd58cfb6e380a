import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { paymentTokenForApp } from '#shared/domain/cards/payment-eligibility.ts';

/**
 * GET /v15/payment_token: the QR code data a POS scans to identify the user, with the app's banner: a user with
 * no card to pay with gets `action: "add_payment_method"` (the code still earns loyalty). A token near the end of
 * its lifetime is replaced first (docs/identity.md, "Payment token"). /v14: payment-token-show-v14.ts.
 */
export const handler = apiHandler('payment-token-show', { summary: "Get the user's QR code data (payment token)" }, async (request) =>
  ok(await paymentTokenForApp(requireUser(request).userId, 'v15')),
);

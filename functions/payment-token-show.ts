import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserOrUnauthorized } from '#shared/domain/users.ts';
import { paymentTokenToShow, serializePaymentToken } from '#shared/domain/payment-tokens.ts';
import { paymentTokenResponse } from '#shared/schemas/users.ts';

/**
 * GET /v15/payment_token: the QR code data a POS scans to identify the user. A token near the end of its
 * lifetime is replaced first (docs/identity.md, "Payment token"), so the code shown keeps working for days.
 */
export const handler = apiHandler('payment-token-show', { responses: { 200: paymentTokenResponse }, summary: "Get the user's QR code data (payment token)" }, async (request) => {
  const user = await getUserOrUnauthorized(requireUser(request).userId);
  return ok(serializePaymentToken(await paymentTokenToShow(user)));
});

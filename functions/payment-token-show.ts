import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserOrUnauthorized } from '#shared/domain/users.ts';
import { paymentTokenResponse } from '#shared/schemas/users.ts';

/** GET /v15/payment_token: the QR code data a POS scans to identify the user. */
export const handler = apiHandler('payment-token-show', { responses: { 200: paymentTokenResponse }, summary: "Get the user's QR code data (payment token)" }, async (request) => {
  const user = await getUserOrUnauthorized(requireUser(request).userId);
  return ok({ payment_token: { data: user.payment_token_data, id: user.payment_token_id } });
});

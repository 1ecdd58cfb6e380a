import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserOrUnauthorized } from '#shared/domain/users.ts';

/** GET /v15/payment_token: the QR code data a POS scans to identify the user. */
export const handler = apiHandler('payment-token-show', {}, async (request) => {
  const user = await getUserOrUnauthorized(requireUser(request).userId);
  return ok({ payment_token: { data: user.payment_token_data, id: user.payment_token_id } });
});

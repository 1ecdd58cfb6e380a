import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { rotatePaymentToken, serializePaymentToken } from '#shared/domain/cards/payment-tokens.ts';

/** POST /v15/payment_token/rotations: a new QR code for the user; the old one stops working at once (a leaked code is killed). */
export const handler = apiHandler(
  'payment-token-rotations-create',
  {
    summary: "Replace the user's QR code data (payment token)",
    description:
      'Issues a new payment token and kills the current one in the same write: a POS scanning the old code is refused as for an unknown code. No body. The new token lasts 30 days (docs/identity.md).',
  },
  async (request) => ok(serializePaymentToken(await rotatePaymentToken(requireUser(request).userId))),
);

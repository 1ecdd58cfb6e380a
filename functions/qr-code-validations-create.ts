import { apiHandler, ok } from '#shared/http/handler.ts';
import { validateQrCode } from '#shared/domain/pos/credit-checks.ts';
import { qrCodeValidationBody } from '#shared/schemas/pos-money.ts';

/** POST /v15/qr_code_validations: is a scanned code a LevelUp code that can hold gift card value? Unknown codes: 404. */
export const handler = apiHandler(
  'qr-code-validations-create',
  { summary: 'Validate a scanned QR code', body: qrCodeValidationBody, bodyObject: 'qr_code_validation' },
  async (request) => {
    const validation = await validateQrCode(request.body.qr_code_validation.payment_token_data);
    return ok({ qr_code_validation: { gift_card: validation.giftCard, linked_to_user: validation.linkedToUser } });
  },
);

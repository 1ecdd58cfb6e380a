import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { updateCheck } from '#shared/domain/orders/checks.ts';
import { checkQrCodeArt, publishedCheckAnswer } from '#shared/domain/orders/published-checks.ts';
import { checkBody, checkParams } from '#shared/schemas/pos.ts';

/** PUT /v15/checks/:uuid: new terms for a published check, before it is paid (C# SDK UpdateRemoteCheckData). */
export const handler = apiHandler(
  'checks-update',
  { summary: 'Update a remote check', body: checkBody, bodyObject: 'check', params: checkParams },
  async (request) => {
    const merchant = requireMerchant(request);
    // The QR code (the uuid's alone) is drawn while the check's UpdateItem is in flight (updateCheck).
    const [check, art] = await updateCheck(merchant.merchantId, request.params.uuid, request.body.check, checkQrCodeArt);
    return ok(publishedCheckAnswer(check, art));
  },
);

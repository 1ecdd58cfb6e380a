import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { getMerchantCheck, serializeCheck } from '#shared/domain/orders/checks.ts';
import { checkParams } from '#shared/schemas/pos.ts';

/** GET /v15/checks/:uuid: the POS polls its check; `pending_order` appears once a customer has claimed it (C# SDK GetRemoteCheckData). */
export const handler = apiHandler('checks-show', { summary: 'Get a remote check and its pending order', params: checkParams }, async (request) => {
  const merchant = requireMerchant(request);
  return ok(serializeCheck(await getMerchantCheck(merchant.merchantId, request.params.uuid)));
});

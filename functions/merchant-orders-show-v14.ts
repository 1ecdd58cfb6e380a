import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { getMerchantOrder, merchantOrderV14Columns, ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ merchant_id: pathId, uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/** GET /v14/merchants/:merchant_id/orders/:uuid: the v14 merchant-facing order (older C# SDK, PowerShell, Ruby gem). */
export const handler = apiHandler(
  'merchant-orders-show-v14',
  { summary: 'Get merchant-facing order details (v14)', params, notFound: ORDER_NOT_FOUND },
  async (request) => {
    const merchant = requireMerchant(request);
    return ok({ order: merchantOrderV14Columns(await getMerchantOrder(merchant.merchantId, request.params.merchant_id, request.params.uuid)) });
  },
);

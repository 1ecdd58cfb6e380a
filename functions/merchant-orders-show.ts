import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireMerchant } from '#shared/http/handler.ts';
import { getMerchantOrder, merchantOrderV15Columns, ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ merchant_id: pathId, uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

/** GET /v15/merchants/:merchant_id/orders/:uuid: one of the merchant's orders with its POS fields and items (C# SDK, PowerShell). */
export const handler = apiHandler(
  'merchant-orders-show',
  { summary: 'Get merchant-facing order details', params, notFound: ORDER_NOT_FOUND },
  async (request) => {
    const merchant = requireMerchant(request);
    return ok({ order: merchantOrderV15Columns(await getMerchantOrder(merchant.merchantId, request.params.merchant_id, request.params.uuid)) });
  },
);

import { apiHandler } from '#shared/http/handler.ts';
import { merchantOrderV15Columns } from '#shared/domain/orders/merchant-orders.ts';
import { merchantOrderSpec, serveMerchantOrder } from '#shared/endpoints/merchant-order.ts';

/** GET /v15/merchants/:merchant_id/orders/:uuid: one of the merchant's orders with its POS fields and items (C# SDK, PowerShell). */
export const handler = apiHandler(
  'merchant-orders-show',
  { ...merchantOrderSpec, summary: 'Get merchant-facing order details' },
  serveMerchantOrder(merchantOrderV15Columns),
);

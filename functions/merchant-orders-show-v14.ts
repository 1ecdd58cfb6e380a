import { apiHandler } from '#shared/http/handler.ts';
import { merchantOrderV14Columns } from '#shared/domain/orders/merchant-orders.ts';
import { merchantOrderSpec, serveMerchantOrder } from '#shared/endpoints/merchant-order.ts';

/** GET /v14/merchants/:merchant_id/orders/:uuid: the v14 merchant-facing order (older C# SDK, PowerShell, Ruby gem). */
export const handler = apiHandler(
  'merchant-orders-show-v14',
  { ...merchantOrderSpec, summary: 'Get merchant-facing order details (v14)' },
  serveMerchantOrder(merchantOrderV14Columns),
);

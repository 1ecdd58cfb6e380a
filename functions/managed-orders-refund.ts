import { apiHandler } from '#shared/http/handler.ts';
import { managedOrderDetail } from '#shared/domain/orders/management.ts';
import { ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { refundServer, refundSpec } from '#shared/endpoints/refund.ts';
import { merchantOrderParams } from '#shared/schemas/orders-management.ts';

/**
 * POST /v15/merchants/:merchant_id/orders/:uuid/refund (owner, manager): the POS's refund, exactly once; the owner's or
 * manager's own token is the approval (no code asked, docs/merchant-api.md "Orders") and they are recorded as the
 * approver; answered in detail; another merchant's order is the same 404 as an unknown one.
 */
export const handler = apiHandler(
  'managed-orders-refund',
  { ...refundSpec, params: merchantOrderParams, notFound: ORDER_NOT_FOUND, summary: "Refund one of the merchant's orders (owner, manager)" },
  refundServer((order) => ({ order: managedOrderDetail(order) }), { unknownOrder: ORDER_NOT_FOUND }),
);

import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { getManagedOrder, managedOrderDetail } from '#shared/domain/orders/management.ts';
import { ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { merchantOrderParams } from '#shared/schemas/orders-management.ts';

/** GET /v15/merchants/:merchant_id/orders/:uuid/details (every role): one order with what paid for it and its refund's approver. */
export const handler = apiHandler(
  'managed-orders-show',
  { summary: "One of the merchant's orders in detail (every staff role)", params: merchantOrderParams, notFound: ORDER_NOT_FOUND },
  async (request) => {
    const actor = requireStaff(request);
    return ok({ order: managedOrderDetail(await getManagedOrder(actor.merchantId, request.params.uuid)) });
  },
);

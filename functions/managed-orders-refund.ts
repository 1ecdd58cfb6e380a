import { apiHandler } from '#shared/http/handler.ts';
import { managedOrderDetail } from '#shared/domain/orders/management.ts';
import { ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { refundServer, refundSpec } from '#shared/endpoints/refund.ts';
import { merchantOrderParams } from '#shared/schemas/orders-management.ts';

/**
 * POST /v15/merchants/:merchant_id/orders/:uuid/refund (owner, manager): the POS's refund, exactly once, answered in
 * detail; the signed-in owner or manager is recorded as the approver. At a merchant that requires a manager code, they
 * approve with their OWN code in `manager_confirmation` (docs/merchant-api.md "Orders"); another merchant's order is
 * the same 404 as an unknown one.
 */
export const handler = apiHandler(
  'managed-orders-refund',
  {
    ...refundSpec,
    description:
      `${refundSpec.description} At a merchant that requires a manager code (a shared code, or any staff member's own), ` +
      "`manager_confirmation` must be the signed-in owner's or manager's own code: none set yet 422 `manager_code_not_set`, " +
      'none sent 422 `manager_code_required`, any other code 422 `manager_code_incorrect` (counted as the register counts wrong codes).',
    params: merchantOrderParams,
    notFound: ORDER_NOT_FOUND,
    summary: "Refund one of the merchant's orders (owner, manager)",
  },
  refundServer((order) => ({ order: managedOrderDetail(order) }), { unknownOrder: ORDER_NOT_FOUND, ownManagerCode: true }),
);

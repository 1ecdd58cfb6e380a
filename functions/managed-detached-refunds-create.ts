import { apiHandler } from '#shared/http/handler.ts';
import { detachedRefundSpec, serveDetachedRefund } from '#shared/endpoints/detached-refund.ts';
import { merchantOrdersParams } from '#shared/schemas/orders-management.ts';

/** POST /v15/merchants/:merchant_id/detached_refunds (owner, manager): the POS's detached refund, approved by the acting staff member. */
export const handler = apiHandler(
  'managed-detached-refunds-create',
  { ...detachedRefundSpec, params: merchantOrdersParams, summary: 'Give a customer credit not tied to an order (owner, manager)' },
  serveDetachedRefund,
);

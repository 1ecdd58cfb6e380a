import { apiHandler } from '#shared/http/handler.ts';
import { detachedRefundSpec, serveDetachedRefund } from '#shared/endpoints/detached-refund.ts';

/** POST /v15/detached_refunds: give the QR code's customer merchant-funded credit not tied to an order. */
export const handler = apiHandler(
  'detached-refunds-create',
  { ...detachedRefundSpec, summary: 'Give a customer credit not tied to an order' },
  serveDetachedRefund,
);

import { apiHandler } from '#shared/http/handler.ts';
import { detachedRefundSpec, serveDetachedRefund } from '#shared/endpoints/detached-refund.ts';

/** POST /v14/detached_refunds: give the QR code's customer merchant-funded credit not tied to an order. */
export const handler = apiHandler(
  'detached-refunds-create-v14',
  { ...detachedRefundSpec, summary: 'Give a customer credit not tied to an order (v14 path)' },
  serveDetachedRefund,
);

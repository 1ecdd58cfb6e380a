import { apiHandler } from '#shared/http/handler.ts';
import { refundSpec, serveRefund } from '#shared/endpoints/refund.ts';

/** POST /v14/orders/:uuid/refund: the order's merchant refunds it. */
export const handler = apiHandler('orders-refund', { ...refundSpec, summary: 'Refund an order' }, serveRefund);

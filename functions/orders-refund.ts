import { apiHandler } from '#shared/http/handler.ts';
import { refundBody, refundParams, serveRefund } from '#shared/domain/refund-handler.ts';

/** POST /v14/orders/:uuid/refund: the order's merchant refunds it. */
export const handler = apiHandler('orders-refund', { params: refundParams, body: refundBody, bodyObject: 'refund' }, serveRefund);

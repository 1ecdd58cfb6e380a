import { apiHandler } from '#shared/http/handler.ts';
import { refundBody, refundParams, serveRefund } from '#shared/domain/refund-handler.ts';

/** POST /v15/orders/:uuid/refund: the same refund as v14 (the C# SDK calls this one). */
export const handler = apiHandler('orders-refund-v15', { params: refundParams, body: refundBody, bodyObject: 'refund' }, serveRefund);

import { apiHandler } from '#shared/http/handler.ts';
import { refundSpec, serveRefund } from '#shared/endpoints/refund.ts';

/** POST /v15/orders/:uuid/refund: the same refund as v14 (the C# SDK calls this one). */
export const handler = apiHandler('orders-refund-v15', { ...refundSpec, summary: 'Refund an order (v15 path)' }, serveRefund);

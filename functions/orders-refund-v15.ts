import { apiHandler } from '#shared/http/handler.ts';
import { refundBody, refundParams, serveRefund } from '#shared/domain/refund-handler.ts';
import { merchantOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/** POST /v15/orders/:uuid/refund: the same refund as v14 (the C# SDK calls this one). */
export const handler = apiHandler('orders-refund-v15', { responses: { 200: merchantOrderResponse, 409: apiErrors }, summary: 'Refund an order (v15 path)', params: refundParams, body: refundBody, bodyObject: 'refund' }, serveRefund);

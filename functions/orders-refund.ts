import { apiHandler } from '#shared/http/handler.ts';
import { refundBody, refundParams, serveRefund } from '#shared/domain/refund-handler.ts';
import { merchantOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

/** POST /v14/orders/:uuid/refund: the order's merchant refunds it. */
export const handler = apiHandler('orders-refund', { responses: { 200: merchantOrderResponse, 409: apiErrors }, summary: 'Refund an order', params: refundParams, body: refundBody, bodyObject: 'refund' }, serveRefund);

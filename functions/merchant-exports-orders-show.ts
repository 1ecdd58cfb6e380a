import { apiHandler } from '#shared/http/handler.ts';
import { exportOrders } from '#shared/domain/reports/exports.ts';
import { exportSpec, serveExport } from '#shared/endpoints/merchant-exports.ts';

/** GET /v15/merchants/:merchant_id/exports/orders.csv: the merchant's orders of a range of UTC days as CSV (owner, manager). */
export const handler = apiHandler('merchant-exports-orders-show', exportSpec('orders'), (request) => serveExport(request, 'orders', exportOrders));

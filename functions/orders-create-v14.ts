import { apiHandler } from '#shared/http/handler.ts';
import { oneStepOrderSpec, serveOneStepOrder } from '#shared/endpoints/one-step-order.ts';

/** POST /v14/orders: the classic one-step order, v14 path (the C# SDK v2 and PowerShell). */
export const handler = apiHandler('orders-create-v14', { ...oneStepOrderSpec, summary: 'Place a one-step order (v14 path)' }, serveOneStepOrder);

import { apiHandler } from '#shared/http/handler.ts';
import { oneStepOrderSpec, serveOneStepOrder } from '#shared/endpoints/one-step-order.ts';

/** POST /v15/orders: the classic one-step order (deprecated by LevelUp; older POS clients and the Ruby gem send it). */
export const handler = apiHandler(
  'orders-create',
  { ...oneStepOrderSpec, summary: 'Place a one-step order (propose and complete instead)', deprecated: true },
  serveOneStepOrder,
);

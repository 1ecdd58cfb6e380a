/** The refund endpoint, served at /v14 and /v15 (functions/orders-refund.ts, functions/orders-refund-v15.ts). */
import { unauthorized } from '#shared/errors.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { refundOrder } from '#shared/domain/orders/refunds.ts';
import type { StoredOrder } from '#shared/domain/orders/record.ts';
import { serializeMerchantOrder } from '#shared/domain/orders/views.ts';
import type { ApiRequest } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { refundBody, refundParams } from '#shared/schemas/money.ts';
import type * as z from '#shared/schemas/zod.ts';

export const refundSpec = {
  description:
    'Naturally idempotent: a repeat for an order already refunded answers the refunded order (200) and refunds nothing more. ' +
    "The refund takes back the customer's detached refund credit that their remaining card charges at the merchant no longer cover.",
  params: refundParams,
  body: refundBody,
  bodyObject: 'refund',
};

/** The refund of the path's order, answered as `answer` lays the order out; `unknownOrder`, `ownManagerCode`: see refundOrder. */
export function refundServer<Answer>(answer: (order: StoredOrder) => Answer, options: { unknownOrder?: () => Error; ownManagerCode?: boolean } = {}) {
  return async (request: ApiRequest<z.output<typeof refundBody>, undefined, { uuid: string }>) => {
    const merchant = request.credentials.merchant;
    if (!merchant) throw unauthorized();
    return idempotentCommit(request, answer, (storeResponse) =>
      refundOrder({
        merchantId: merchant.merchantId,
        orderUuid: request.params.uuid,
        managerConfirmation: request.body.refund?.manager_confirmation,
        audit: auditContextOf(request),
        storeResponse,
        unknownOrder: options.unknownOrder,
        ownManagerCode: options.ownManagerCode,
      }),
    );
  };
}

export const serveRefund = refundServer(serializeMerchantOrder);

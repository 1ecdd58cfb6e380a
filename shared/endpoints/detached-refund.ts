/** Detached refunds, served at /v15 and /v14 (functions/detached-refunds-create*.ts). */
import type * as z from '#shared/schemas/zod.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { createDetachedRefund, type DetachedRefundResponse } from '#shared/domain/orders/detached-refunds.ts';
import { requireMerchant, type ApiRequest } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { detachedRefundBody } from '#shared/schemas/pos-money.ts';

/** An unknown QR code is 404 with an empty body (as for the other POS calls that take one). */
export const detachedRefundSpec = { body: detachedRefundBody, bodyObject: 'detached_refund' };

/** Credits the QR code's customer at the merchant, once per Idempotency-Key (or identifier_from_merchant). */
export async function serveDetachedRefund(request: ApiRequest<z.output<typeof detachedRefundBody>, undefined, unknown>) {
  const merchant = requireMerchant(request);
  return idempotentCommit(
    request,
    (response: DetachedRefundResponse) => response,
    (storeResponse) =>
      createDetachedRefund({ merchantId: merchant.merchantId, refund: request.body.detached_refund, audit: auditContextOf(request), storeResponse }),
  );
}

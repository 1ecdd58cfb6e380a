/** The refund endpoint's body, served at /v14 and /v15 (functions/orders-refund*.ts). */
import * as z from 'zod';
import type { Credentials } from '#shared/auth/tokens.ts';
import { idempotent } from '#shared/domain/idempotency.ts';
import { refundOrder, serializeMerchantOrder } from '#shared/domain/checkout.ts';
import { unauthorized } from '#shared/errors.ts';

export const refundParams = z.object({ uuid: z.string().min(1).max(64) });

/** Body optional: `{"refund": {"manager_confirmation": "..."}}` (only merchants with a code need it). */
export const refundBody = z
  .object({ refund: z.object({ manager_confirmation: z.string().max(255).nullish() }).nullish() })
  .optional()
  .transform((body) => body ?? {});

export async function serveRefund(request: {
  params: { uuid: string };
  body: { refund?: { manager_confirmation?: string | null } | null };
  credentials: Credentials;
  headers: Record<string, string | undefined>;
  rawPath: string;
  event: { body?: unknown; requestContext?: { http?: { method?: string } } };
}) {
  const merchant = request.credentials.merchant;
  if (!merchant) throw unauthorized();
  return idempotent(request, async (idempotency) => {
    const order = await refundOrder({
      merchantId: merchant.merchantId,
      orderUuid: request.params.uuid,
      managerConfirmation: request.body.refund?.manager_confirmation,
      respond: (refunded) => idempotency.completionItem({ status: 200, body: serializeMerchantOrder(refunded) }),
    });
    return { status: 200, body: serializeMerchantOrder(order) };
  });
}

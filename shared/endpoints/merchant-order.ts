/**
 * A merchant-facing order, served at v15 and v14 (functions/merchant-orders-show.ts,
 * functions/merchant-orders-show-v14.ts): the same read, each version's columns.
 */
import * as z from '#shared/schemas/zod.ts';
import { getMerchantOrder, ORDER_NOT_FOUND } from '#shared/domain/orders/merchant-orders.ts';
import { ok, requireMerchant, type ApiRequest } from '#shared/http/handler.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ merchant_id: pathId, uuid: z.string().check(z.minLength(1), z.maxLength(64)) });

export const merchantOrderSpec = { params, notFound: ORDER_NOT_FOUND };

/** The merchant's order, answered as `columns` lays it out. */
export function serveMerchantOrder(columns: (order: Awaited<ReturnType<typeof getMerchantOrder>>) => object) {
  return async (request: ApiRequest<undefined, undefined, z.output<typeof params>>) => {
    const merchant = requireMerchant(request);
    return ok({ order: columns(await getMerchantOrder(merchant.merchantId, request.params.merchant_id, request.params.uuid)) });
  };
}

import { notFound, errorDetail, type ApiError } from '#shared/errors.ts';
import { getOrder, type OrderRecord } from '#shared/domain/orders/record.ts';
import { getInterstitial, serializeInterstitial } from '#shared/domain/app-surface/interstitials.ts';
import { ok, requireAnyPermission, requireUser, type ApiResponse } from '#shared/http/handler.ts';
import type { Credentials } from '#shared/auth/tokens.ts';

/**
 * What the v14 and v15 forms of the same app-surface operation share (the route table gives each path
 * its own function): the order's interstitial (A6).
 */

/** iOS and Android ask with a token holding either permission (Android's declaration). */
export const ORDER_SCREEN_PERMISSIONS = ['create_orders', 'read_qr_code'] as const;

/** The documented 404 body (v15 docs); the iOS stub's empty 404 is accepted by the same clients. */
export const interstitialNotFound = (): ApiError => notFound(errorDetail('interstitial', 'id', 'Interstitial not found.', 'not_found'));

/** The requesting user's own order; anyone else's answers exactly as a missing one. */
export async function ownOrder(userId: number, uuid: string, missing: () => ApiError): Promise<OrderRecord> {
  const order = await getOrder(uuid);
  if (!order || order.user_id !== userId) throw missing();
  return order;
}

export async function serveInterstitial(request: { credentials: Credentials; params: { uuid: string }; baseUrl: string }): Promise<ApiResponse> {
  const user = requireUser(request);
  requireAnyPermission(user, ORDER_SCREEN_PERMISSIONS);
  const order = await ownOrder(user.userId, request.params.uuid, interstitialNotFound);
  const interstitial = await getInterstitial(order.merchant_id);
  if (!interstitial) throw interstitialNotFound();
  return ok(serializeInterstitial(interstitial, order, request.baseUrl));
}

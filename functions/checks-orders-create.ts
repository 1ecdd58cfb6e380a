import { unauthorized } from '#shared/errors.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { idempotentCommit } from '#shared/http/idempotency.ts';
import { claimCheck, finaliseCheck, serializeCheck } from '#shared/domain/orders/checks.ts';
import { serializeCompletedOrder } from '#shared/domain/orders/views.ts';
import type { Permission } from '#shared/routes.ts';
import { checkOrderBody, checkParams } from '#shared/schemas/pos.ts';

/** This route takes either token kind, so the permission each needs is checked here rather than by the route row. */
function requirePermission(principal: { permissions: readonly Permission[] }, permission: Permission): void {
  if (!principal.permissions.includes(permission)) {
    throw unauthorized(`The access token lacks the ${permission} permission.`, 'access_token', 'permissions', 'missing_permission');
  }
}

/**
 * POST /v15/checks/:uuid/orders. With a merchant token (`manage_merchant_orders`), the POS finalises the claimed
 * check through the settlement saga (C# SDK FinalizeRemoteCheck; Idempotency-Key honoured) and gets the completed
 * order. With a user token (`create_orders`), the customer's app claims the check it scanned and gets the check.
 * An app token is refused.
 */
export const handler = apiHandler(
  'checks-orders-create',
  {
    summary: 'Finalise (POS) or claim (customer) a remote check',
    description:
      'A finalisation repeated with the same terms answers the stored order (200) and charges nothing; with other terms, 422 order/base `differs_from_completed`.',
    body: checkOrderBody,
    bodyObject: 'order',
    params: checkParams,
  },
  async (request) => {
    const { merchant, user } = request.credentials;
    if (merchant) {
      requirePermission(merchant, 'manage_merchant_orders');
      return idempotentCommit(request, serializeCompletedOrder, (storeResponse) =>
        finaliseCheck(merchant.merchantId, request.params.uuid, request.body, storeResponse),
      );
    }
    if (!user) throw unauthorized('A merchant or user token is required.');
    requirePermission(user, 'create_orders');
    // A claim moves no money and is its own retry: the same user claiming again gets the same pending order.
    return ok(serializeCheck(await claimCheck(user, request.params.uuid, request.body)));
  },
);

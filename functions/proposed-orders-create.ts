import * as z from 'zod';
import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotent } from '#shared/domain/idempotency.ts';
import { proposeOrder, serializeProposedOrder } from '#shared/domain/orders.ts';
import { posOrderFields } from '#shared/domain/order-input.ts';
import { proposedOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

const body = z.object({ proposed_order: z.object(posOrderFields) });

/** POST /v15/proposed_orders: the POS proposes an order and learns the discount the customer can apply. */
export const handler = apiHandler('proposed-orders-create', { responses: { 200: proposedOrderResponse, 409: apiErrors }, summary: 'Propose an order (in-store)', body, bodyObject: 'proposed_order' }, async (request) => {
  const merchant = requireMerchant(request);
  const proposed = request.body.proposed_order;
  return idempotent(request, async () => {
    const order = await proposeOrder({
      merchantId: merchant.merchantId,
      appId: merchant.appId,
      locationId: proposed.location_id,
      paymentTokenData: proposed.payment_token_data,
      spendAmount: proposed.spend_amount,
      taxAmount: proposed.tax_amount,
      exemptionAmount: proposed.exemption_amount,
      partialAuthorizationAllowed: proposed.partial_authorization_allowed ?? false,
      discountOnly: proposed.discount_only ?? false,
      items: proposed.items,
      cashier: proposed.cashier,
      register: proposed.register,
      identifierFromMerchant: proposed.identifier_from_merchant,
      receiptMessageHtml: proposed.receipt_message_html,
    });
    return { status: 200, body: serializeProposedOrder(order) };
  });
});

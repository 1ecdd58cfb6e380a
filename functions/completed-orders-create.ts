import * as z from 'zod';
import { apiHandler, requireMerchant } from '#shared/http/handler.ts';
import { idempotent } from '#shared/domain/idempotency.ts';
import { completeProposedOrder, serializeCompletedOrder } from '#shared/domain/orders.ts';
import { amounts, feeSchema, posOrderFields } from '#shared/domain/order-input.ts';
import { completedOrderResponse } from '#shared/schemas/money.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

const body = z.object({
  completed_order: z.object({
    ...posOrderFields,
    proposed_order_uuid: z.string().min(1).max(64),
    tip_amount: amounts.optional,
    // Clients with discounts disabled send null.
    applied_discount_amount: amounts.optional,
    fees: z.array(feeSchema).max(50).nullish(),
  }),
});

/** POST /v15/completed_orders: completes a proposed order, charging the customer the QR code names. */
export const handler = apiHandler('completed-orders-create', { responses: { 200: completedOrderResponse, 409: apiErrors }, summary: 'Complete a proposed order (in-store)', body, bodyObject: 'completed_order' }, async (request) => {
  const merchant = requireMerchant(request);
  const completed = request.body.completed_order;
  return idempotent(request, async (idempotency) => {
    const order = await completeProposedOrder({
      merchantId: merchant.merchantId,
      proposedOrderUuid: completed.proposed_order_uuid,
      paymentTokenData: completed.payment_token_data,
      locationId: completed.location_id,
      spendAmount: completed.spend_amount,
      taxAmount: completed.tax_amount,
      tipAmount: completed.tip_amount,
      appliedDiscountAmount: completed.applied_discount_amount,
      exemptionAmount: completed.exemption_amount,
      partialAuthorizationAllowed: completed.partial_authorization_allowed ?? false,
      discountOnly: completed.discount_only ?? false,
      items: completed.items,
      fees: (completed.fees ?? []).map((fee) => fee.fee),
      cashier: completed.cashier,
      register: completed.register,
      identifierFromMerchant: completed.identifier_from_merchant,
      receiptMessageHtml: completed.receipt_message_html,
      respond: (settled) => idempotency.completionItem({ status: 200, body: serializeCompletedOrder(settled) }),
    });
    return { status: 200, body: serializeCompletedOrder(order) };
  });
});

/** What the POS money operations beyond the contract answer (the requests and the operations: shared/schemas/pos-money.ts). */
import * as z from '#shared/schemas/zod.ts';
import { cents, integerId, timestamp, uuid } from './common.ts';
import { named, resource } from './registry.ts';

export const oneStepOrderResponse = resource('OneStepOrder', 'order', {
  uuid,
  spend_amount: cents,
  tip_amount: cents.check(z.describe("From the QR code's tip preference unless the request names one")),
  total_amount: cents,
  gift_card_total_amount: cents,
  gift_card_tip_amount: cents,
});

/** GET /v15/locations/:location_id/credit */
export const locationCreditResponse = resource('LocationCredit', 'credit', {
  total_amount: cents.check(z.describe('Merchant-funded credit plus gift card value the user can spend at the location')),
  merchant_funded_credit_amount: cents,
});
export const merchantFundedCreditResponse = resource('MerchantFundedCredit', 'merchant_funded_credit', {
  discount_amount: cents.check(z.describe('Merchant-funded credit the next proposed order can apply')),
  gift_card_amount: cents.check(z.describe('Gift card value at the merchant (a tender)')),
  total_amount: cents,
});
export const giftCardCreditResponse = named('MerchantFundedGiftCardCredit', z.object({ merchant_funded_gift_card_credit: z.object({ total_amount: cents }) }));
export const qrCodeValidationResponse = named(
  'QrCodeValidation',
  z.object({ qr_code_validation: z.object({ gift_card: z.boolean(), linked_to_user: z.boolean() }) }),
);
export const giftCardValueRemovalResponse = resource('GiftCardValueRemoval', 'gift_card_value_removal', {
  removed_value_amount: cents,
  new_value_at_merchant_amount: cents,
  old_value_at_merchant_amount: cents,
});
export const detachedRefundResponse = resource('DetachedRefund', 'detached_refund', {
  cashier: z.nullable(z.string()),
  credit_amount: cents,
  customer_facing_reason: z.nullable(z.string()),
  identifier_from_merchant: z.nullable(z.string()),
  internal_reason: z.nullable(z.string()),
  location_id: integerId,
  loyalty_id: integerId.check(z.describe("The user's id")),
  refunded_at: timestamp,
  register: z.nullable(z.string()),
});

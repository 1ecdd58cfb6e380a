/**
 * Request and response schemas of the POS operations beyond the contract (sdk-operations.md, section
 * "POS money"): the classic one-step order, credit checks, gift card value removals, detached refunds,
 * merchant-funded credit grants, progress adjustments and QR code validation.
 */
import * as z from 'zod';
import { cents, integerId, timestamp, uuid } from './common.ts';
import { named, schema } from './registry.ts';
import { amounts, itemsSchema } from './money.ts';
import { pathId } from './params.ts';
import { PAYMENT_TOKEN_DATA_MAX } from './vocabularies.ts';

/**
 * The scanned QR string as POS clients send it, whole: the app may have appended its payment preferences,
 * which the domain reads off it with the one parser of shared/domain/payment-codes.ts.
 */
const paymentTokenData = /* @__PURE__ */ schema(() => z.string().max(PAYMENT_TOKEN_DATA_MAX));
const flag = /* @__PURE__ */ schema(() => z.boolean().nullish().transform((value) => value ?? false));
const optionalText = (max: number) => z.string().max(max).nullish().transform((value) => value ?? null);

/**
 * Items as every client sends them: the 2014 docs and the Ruby gem name prices `charged_price` /
 * `standard_price` (newer clients add `_amount`), and the gem leaves `null` where it dropped an empty item.
 */
function withCurrentItemKeys(items: unknown): unknown {
  if (!Array.isArray(items)) return items;
  const rename = (item: Record<string, unknown>): Record<string, unknown> => {
    const { charged_price, standard_price, children, ...rest } = item;
    return {
      ...rest,
      ...(rest.charged_price_amount === undefined && charged_price !== undefined ? { charged_price_amount: charged_price } : {}),
      ...(rest.standard_price_amount === undefined && standard_price !== undefined ? { standard_price_amount: standard_price } : {}),
      ...(children !== undefined ? { children: withCurrentItemKeys(children) } : {}),
    };
  };
  return items
    .filter((entry) => entry !== null)
    .map((entry) => (entry && typeof entry === 'object' && 'item' in entry && entry.item && typeof entry.item === 'object' ? { item: rename(entry.item as Record<string, unknown>) } : entry));
}
const legacyItems = /* @__PURE__ */ schema(() => z.preprocess(withCurrentItemKeys, itemsSchema));

/** POST /v15/orders and /v14/orders: the classic one-step order (proposed and completed at once). */
export const oneStepOrderBody = /* @__PURE__ */ schema(() => z.object({
  order: z.object({
    location_id: z.number().int(),
    spend_amount: amounts.required,
    /** The scanned QR string, raw (its tip preference is read from it); absent when a user token is sent. */
    payment_token_data: z.string().max(PAYMENT_TOKEN_DATA_MAX).nullish(),
    identifier_from_merchant: z.string().max(255).nullish(),
    cashier: z.string().max(255).nullish(),
    register: z.string().max(255).nullish(),
    applied_discount_amount: amounts.optional,
    // Sent by the C# SDK v3 (the gift card value the POS saw); the server applies what the card holds.
    available_gift_card_amount: amounts.required.nullish(),
    exemption_amount: amounts.optional,
    tax_amount: amounts.optional,
    tip_amount: amounts.required.nullish(),
    partial_authorization_allowed: flag,
    receipt_message_html: z.string().nullish(),
    items: legacyItems,
  }),
}));
export type OneStepOrderRequest = z.output<typeof oneStepOrderBody>['order'];

export const oneStepOrderResponse = /* @__PURE__ */ schema(() => named(
  'OneStepOrder',
  z.object({
    order: z.object({
      uuid,
      spend_amount: cents,
      tip_amount: cents.describe('From the QR code\'s tip preference unless the request names one'),
      total_amount: cents,
      gift_card_total_amount: cents,
      gift_card_tip_amount: cents,
    }),
  }),
));

export const locationParams = /* @__PURE__ */ schema(() => z.object({ location_id: pathId }));

/** GET /v15/locations/:location_id/credit */
export const locationCreditResponse = /* @__PURE__ */ schema(() => named(
  'LocationCredit',
  z.object({
    credit: z.object({
      total_amount: cents.describe('Merchant-funded credit plus gift card value the user can spend at the location'),
      merchant_funded_credit_amount: cents,
    }),
  }),
));

/** GET or POST /v15/locations/:location_id/merchant_funded_credit: the QR code in the query, the body, or a user token. */
export const merchantFundedCreditQuery = /* @__PURE__ */ schema(() => z.object({ payment_token_data: paymentTokenData.optional() }));
export const merchantFundedCreditBody = /* @__PURE__ */ schema(() => z
  .object({
    credit_query: z
      .object({
        payment_token_data: paymentTokenData.nullish(),
        identifier_from_merchant: z.string().max(255).nullish(),
        items: itemsSchema,
      })
      .nullish(),
  })
  .optional()
  .transform((body) => body ?? {}));
export const merchantFundedCreditResponse = /* @__PURE__ */ schema(() => named(
  'MerchantFundedCredit',
  z.object({
    merchant_funded_credit: z.object({
      discount_amount: cents.describe('Merchant-funded credit the next proposed order can apply'),
      gift_card_amount: cents.describe('Gift card value at the merchant (a tender)'),
      total_amount: cents,
    }),
  }),
));

/** POST /v15/locations/:location_id/get_merchant_funded_gift_card_credit */
export const giftCardCreditBody = /* @__PURE__ */ schema(() => z.object({ get_merchant_funded_gift_card_credit: z.object({ payment_token_data: paymentTokenData }) }));
export const giftCardCreditResponse = /* @__PURE__ */ schema(() => named('MerchantFundedGiftCardCredit', z.object({ merchant_funded_gift_card_credit: z.object({ total_amount: cents }) })));

/** POST /v15/qr_code_validations */
export const qrCodeValidationBody = /* @__PURE__ */ schema(() => z.object({ qr_code_validation: z.object({ payment_token_data: paymentTokenData }) }));
export const qrCodeValidationResponse = /* @__PURE__ */ schema(() => named(
  'QrCodeValidation',
  z.object({ qr_code_validation: z.object({ gift_card: z.boolean(), linked_to_user: z.boolean() }) }),
));

/** POST /v15/merchants/:merchant_id/gift_card_value_removals: by amount, or reversing an addition by its uuid. */
export const merchantParams = /* @__PURE__ */ schema(() => z.object({ merchant_id: pathId }));
export const giftCardValueRemovalBody = /* @__PURE__ */ schema(() => z.object({
  gift_card_value_removal: z.object({
    payment_token_data: paymentTokenData,
    value_amount: z.number().int().min(-100_000_000).max(100_000_000).nullish(),
    uuid: z.string().max(64).nullish(),
  }),
}));
export type GiftCardValueRemovalRequest = z.output<typeof giftCardValueRemovalBody>['gift_card_value_removal'];
export const giftCardValueRemovalResponse = /* @__PURE__ */ schema(() => named(
  'GiftCardValueRemoval',
  z.object({
    gift_card_value_removal: z.object({
      removed_value_amount: cents,
      new_value_at_merchant_amount: cents,
      old_value_at_merchant_amount: cents,
    }),
  }),
));

/** POST /v15/detached_refunds (and v14) */
export const detachedRefundBody = /* @__PURE__ */ schema(() => z.object({
  detached_refund: z.object({
    credit_amount: z.number().int().min(-100_000_000).max(100_000_000)
      .describe("Cents, 1 to 100,000 ($1,000) per refund, within what the customer was charged at the merchant and the merchant's daily budget of credit given by hand (422 over_operation_cap / base over_daily_credit_budget)"),
    location_id: z.number().int(),
    payment_token_data: paymentTokenData,
    cashier: optionalText(255),
    customer_facing_reason: optionalText(1000),
    identifier_from_merchant: optionalText(255),
    internal_reason: optionalText(1000),
    manager_confirmation: z.string().max(255).nullish(),
    register: optionalText(255),
  }),
}));
export type DetachedRefundRequest = z.output<typeof detachedRefundBody>['detached_refund'];
export const detachedRefundResponse = /* @__PURE__ */ schema(() => named(
  'DetachedRefund',
  z.object({
    detached_refund: z.object({
      cashier: z.string().nullable(),
      credit_amount: cents,
      customer_facing_reason: z.string().nullable(),
      identifier_from_merchant: z.string().nullable(),
      internal_reason: z.string().nullable(),
      location_id: integerId,
      loyalty_id: integerId.describe("The user's id"),
      refunded_at: timestamp,
      register: z.string().nullable(),
    }),
  }),
));

/** POST /v15/merchant_funded_credits */
export const merchantFundedCreditGrantBody = /* @__PURE__ */ schema(() => z.object({
  merchant_funded_credit: z.object({
    email: z.string().trim().min(1).max(254),
    value_amount: z.number().int().min(-100_000_000).max(100_000_000)
      .describe("Cents, 1 to 50,000 ($500) per grant, within the merchant's daily budget of credit given by hand (422 base over_daily_credit_budget)"),
    merchant_id: z.number().int().nullish(),
    duration_in_seconds: z.number().int().min(-1_000_000_000_000).max(1_000_000_000_000).nullish(),
    message: optionalText(1000),
    global: flag,
  }),
}));
export type MerchantFundedCreditGrantRequest = z.output<typeof merchantFundedCreditGrantBody>['merchant_funded_credit'];

/** POST /v15/progress_adjustments */
export const progressAdjustmentBody = /* @__PURE__ */ schema(() => z.object({
  progress_adjustment: z.object({
    adjustment: z.number().int().min(-1_000_000).max(1_000_000)
      .describe("Items, visits or cents by the campaign's kind; the rewards one adjustment earns are worth at most $500 (422 over_operation_cap) and their credit stays within the merchant's daily budget of credit given by hand (422 base over_daily_credit_budget)"),
    campaign_id: z.number().int(),
    email: z.string().trim().max(254).nullish(),
    user_id: z.number().int().nullish(),
    audit_comment: optionalText(1000),
    suppress_email: flag,
  }),
}));
export type ProgressAdjustmentRequest = z.output<typeof progressAdjustmentBody>['progress_adjustment'];

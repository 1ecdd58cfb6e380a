/**
 * Request schemas of the POS operations beyond the contract (sdk-operations.md, section
 * "POS money"): the classic one-step order, credit checks, gift card value removals, detached refunds,
 * merchant-funded credit grants, progress adjustments and QR code validation. Their answers: shared/schemas/responses/pos-money.ts.
 */
import * as z from '#shared/schemas/zod.ts';
import { amounts, itemsSchema } from './money.ts';
import { pathId } from './params.ts';
import { PAYMENT_TOKEN_DATA_MAX } from './vocabularies.ts';

/**
 * The scanned QR string as POS clients send it, whole: the app may have appended its payment preferences,
 * which the domain reads off it with the one parser of shared/domain/cards/payment-codes.ts.
 */
const paymentTokenData = z.string().check(z.maxLength(PAYMENT_TOKEN_DATA_MAX));
const flag = z.pipe(
  z.nullish(z.boolean()),
  z.transform((value) => value ?? false),
);
/**
 * A whole number within ±limit: the bound only keeps absurd numbers out; the domain checks the operation's
 * own range and answers its specific 422 (not_positive, over_operation_cap, ...).
 */
const wholeWithin = (limit: number) => z.number().check(z.int(), z.gte(-limit), z.lte(limit));
const optionalText = (max: number) =>
  z.pipe(
    z.nullish(z.string().check(z.maxLength(max))),
    z.transform((value) => value ?? null),
  );

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
    .map((entry) =>
      entry && typeof entry === 'object' && 'item' in entry && entry.item && typeof entry.item === 'object'
        ? { item: rename(entry.item as Record<string, unknown>) }
        : entry,
    );
}
const legacyItems = z.pipe(z.transform(withCurrentItemKeys), itemsSchema);

/** POST /v15/orders and /v14/orders: the classic one-step order (proposed and completed at once). */
export const oneStepOrderBody = z.object({
  order: z.object({
    location_id: z.number().check(z.int()),
    spend_amount: amounts.required,
    /** The scanned QR string, raw (its tip preference is read from it); absent when a user token is sent. */
    payment_token_data: z.nullish(z.string().check(z.maxLength(PAYMENT_TOKEN_DATA_MAX))),
    identifier_from_merchant: z.nullish(z.string().check(z.maxLength(255))),
    cashier: z.nullish(z.string().check(z.maxLength(255))),
    register: z.nullish(z.string().check(z.maxLength(255))),
    applied_discount_amount: amounts.optional,
    // Sent by the C# SDK v3 (the gift card value the POS saw); the server applies what the card holds.
    available_gift_card_amount: z.nullish(amounts.required),
    exemption_amount: amounts.optional,
    tax_amount: amounts.optional,
    tip_amount: z.nullish(amounts.required),
    partial_authorization_allowed: flag,
    receipt_message_html: z.nullish(z.string()),
    items: legacyItems,
  }),
});
export type OneStepOrderRequest = z.output<typeof oneStepOrderBody>['order'];

export const locationParams = z.object({ location_id: pathId });

/** GET or POST /v15/locations/:location_id/merchant_funded_credit: the QR code in the query, the body, or a user token. */
export const merchantFundedCreditQuery = z.object({ payment_token_data: z.optional(paymentTokenData) });
export const merchantFundedCreditBody = z.pipe(
  z.optional(
    z.object({
      credit_query: z.nullish(
        z.object({
          payment_token_data: z.nullish(paymentTokenData),
          identifier_from_merchant: z.nullish(z.string().check(z.maxLength(255))),
          items: itemsSchema,
        }),
      ),
    }),
  ),
  z.transform((body) => body ?? {}),
);

/** POST /v15/locations/:location_id/get_merchant_funded_gift_card_credit */
export const giftCardCreditBody = z.object({ get_merchant_funded_gift_card_credit: z.object({ payment_token_data: paymentTokenData }) });

/** POST /v15/qr_code_validations */
export const qrCodeValidationBody = z.object({ qr_code_validation: z.object({ payment_token_data: paymentTokenData }) });

/**
 * A manager code a credit grant or gift card value removal may carry (none is required): checked as a refund's is,
 * it names the approving staff member (docs/merchant-api.md, "Manager codes").
 */
const optionalManagerConfirmation = z.nullish(
  z.string().check(z.maxLength(255), z.describe("Optional: a manager's own code (or the merchant's shared one); a wrong one is 422, as for a refund")),
);

/** POST /v15/merchants/:merchant_id/gift_card_value_removals: by amount, or reversing an addition by its uuid. */
export const merchantParams = z.object({ merchant_id: pathId });
export const giftCardValueRemovalBody = z.object({
  gift_card_value_removal: z.object({
    payment_token_data: paymentTokenData,
    value_amount: z.nullish(wholeWithin(100_000_000)),
    uuid: z.nullish(z.string().check(z.maxLength(64))),
    manager_confirmation: optionalManagerConfirmation,
  }),
});
export type GiftCardValueRemovalRequest = z.output<typeof giftCardValueRemovalBody>['gift_card_value_removal'];

/** POST /v15/detached_refunds (and v14) */
export const detachedRefundBody = z.object({
  detached_refund: z.object({
    credit_amount: wholeWithin(100_000_000).check(
      z.describe(
        "Cents, 1 to 100,000 ($1,000) per refund, within what the customer was charged at the merchant and the merchant's daily budget of credit given by hand (422 over_operation_cap / base over_daily_credit_budget)",
      ),
    ),
    location_id: z.number().check(z.int()),
    payment_token_data: paymentTokenData,
    cashier: optionalText(255),
    customer_facing_reason: optionalText(1000),
    identifier_from_merchant: optionalText(255),
    internal_reason: optionalText(1000),
    manager_confirmation: z.nullish(z.string().check(z.maxLength(255))),
    register: optionalText(255),
  }),
});
export type DetachedRefundRequest = z.output<typeof detachedRefundBody>['detached_refund'];

/** POST /v15/merchant_funded_credits */
export const merchantFundedCreditGrantBody = z.object({
  merchant_funded_credit: z.object({
    email: z.string().check(z.trim(), z.minLength(1), z.maxLength(254)),
    value_amount: wholeWithin(100_000_000).check(
      z.describe("Cents, 1 to 50,000 ($500) per grant, within the merchant's daily budget of credit given by hand (422 base over_daily_credit_budget)"),
    ),
    merchant_id: z.nullish(z.number().check(z.int())),
    duration_in_seconds: z.nullish(wholeWithin(1_000_000_000_000)),
    message: optionalText(1000),
    global: flag,
    manager_confirmation: optionalManagerConfirmation,
  }),
});
export type MerchantFundedCreditGrantRequest = z.output<typeof merchantFundedCreditGrantBody>['merchant_funded_credit'];

/** POST /v15/progress_adjustments */
export const progressAdjustmentBody = z.object({
  progress_adjustment: z.object({
    adjustment: wholeWithin(1_000_000).check(
      z.describe(
        "Items, visits or cents by the campaign's kind; the rewards one adjustment earns are worth at most $500 (422 over_operation_cap) and their credit stays within the merchant's daily budget of credit given by hand (422 base over_daily_credit_budget)",
      ),
    ),
    campaign_id: z.number().check(z.int()),
    email: z.nullish(z.string().check(z.trim(), z.maxLength(254))),
    user_id: z.nullish(z.number().check(z.int())),
    audit_comment: optionalText(1000),
    suppress_email: flag,
  }),
});
export type ProgressAdjustmentRequest = z.output<typeof progressAdjustmentBody>['progress_adjustment'];

import * as z from 'zod';
import { cents, integerId, orderIntegerId, timestamp, uuid } from './common.ts';
import { named, schema } from './registry.ts';
import { PAYMENT_TOKEN_DATA_MAX } from './vocabularies.ts';

// ---------------------------------------------------------------------------------------------
// Requests (the domain takes their parsed output: z.output of these schemas)

/** An amount a POS sends: integer cents, bounded so no sum of them leaves the safe integers. */
const amountInCents = /* @__PURE__ */ schema(() => z.number().int().min(0).max(100_000_000));

/** One line of an order as a POS sends it (and as the order keeps it); modifiers nest as children. */
export interface OrderItem {
  name: string;
  description: string;
  quantity?: number;
  charged_price_amount: number;
  standard_price_amount?: number;
  sku?: string | null;
  upc?: string | null;
  category?: string | null;
  children?: OrderItem[];
}

type ItemEnvelope = { item: OrderItem };

/**
 * Most units one order line may carry (docs/money.md, "Order math"): far above any real till (the C# SDK
 * sends 10,000; a POS selling by the gram sends thousands), only so that every count stays a small safe
 * integer. Loyalty is not bounded here but by the money: a line counts at most one unit per cent charged and an
 * order at most one unit per cent of its qualifying spend (loyalty/progress.ts), so a quantity mints nothing.
 */
export const MAX_ITEM_QUANTITY = 1_000_000;
/** Most units one order may carry, each line's quantity times its parents' quantities, summed. */
export const MAX_ORDER_UNITS = 100_000_000;

export const orderItemSchema: z.ZodType<ItemEnvelope> = z.lazy(() =>
  z.object({
    item: z.object({
      charged_price_amount: amountInCents,
      description: z.string().max(1000).nullish().transform((value) => value ?? ''),
      name: z.string().max(255),
      // Required by the contract except for child items; omitted means one.
      quantity: z.number().int().min(1).max(MAX_ITEM_QUANTITY).nullish().transform((value) => value ?? undefined),
      sku: z.string().max(255).nullish(),
      category: z.string().max(255).nullish(),
      standard_price_amount: amountInCents.nullish().transform((value) => value ?? undefined),
      upc: z.string().max(255).nullish(),
      children: z.array(orderItemSchema).max(100).nullish().transform((children) => children?.map((child) => child.item)),
    }),
  }),
) as unknown as z.ZodType<ItemEnvelope>;

/**
 * Deepest `children` nesting accepted. Orders are stored as DynamoDB maps and lists, which nest at most
 * 32 levels (each level of children takes two); POS modifiers nest one or two levels in practice.
 */
export const MAX_ITEM_NESTING = 10;

function nesting(items: readonly OrderItem[] | undefined): number {
  return Math.max(0, ...(items ?? []).map((item) => 1 + nesting(item.children)));
}

/**
 * Units in an order: each line's quantity times its parents' quantities (a modifier's quantity is per unit
 * of its parent), summed. Stops counting once past `limit`, so nested quantities never leave the safe integers.
 */
export function orderUnits(items: readonly OrderItem[] | undefined, limit = MAX_ORDER_UNITS, multiplier = 1): number {
  let units = 0;
  for (const item of items ?? []) {
    const lineUnits = (item.quantity ?? 1) * multiplier;
    units += lineUnits;
    if (units > limit) return units;
    units += orderUnits(item.children, limit - units, lineUnits);
    if (units > limit) return units;
  }
  return units;
}

export const itemsSchema = /* @__PURE__ */ schema(() => z
  .array(orderItemSchema)
  .max(200)
  .nullish()
  .refine((items) => nesting(items?.map((envelope) => envelope.item)) <= MAX_ITEM_NESTING, {
    error: `nest children at most ${MAX_ITEM_NESTING} levels deep`,
  })
  .refine((items) => orderUnits(items?.map((envelope) => envelope.item)) <= MAX_ORDER_UNITS, {
    error: `hold at most ${MAX_ORDER_UNITS} units (quantities times their parents' quantities)`,
  })
  .transform((items) => (items ?? []).map((envelope) => envelope.item)));

export const feeSchema = /* @__PURE__ */ schema(() => z.object({
  fee: z.object({
    name: z.string().max(255).nullish(),
    type: z.enum(['delivery', 'custom', 'catering']),
    charged_price_amount: amountInCents,
    tax_amount: amountInCents.nullish(),
    collector: z.literal('merchant'),
  }),
}));

export type OrderFee = z.output<typeof feeSchema>['fee'];

export const amounts = /* @__PURE__ */ schema(() => ({
  required: amountInCents,
  optional: amountInCents.nullish().transform((value) => value ?? 0),
}));

/** A flag clients send as true, false, null or not at all: only true is true. */
const flag = /* @__PURE__ */ schema(() => z.boolean().nullish().transform((value) => value ?? false));

/**
 * The fields a POS sends both when it proposes an order and when it completes it: the completed
 * order may differ from the proposed one only in adjusted amounts and the applied discount.
 */
export const posOrderFields = /* @__PURE__ */ schema(() => ({
  location_id: z.number().int(),
  payment_token_data: z.string().max(PAYMENT_TOKEN_DATA_MAX),
  spend_amount: amounts.required,
  tax_amount: amounts.optional,
  exemption_amount: amounts.optional,
  partial_authorization_allowed: flag,
  discount_only: flag,
  cashier: z.string().max(255).nullish(),
  register: z.string().max(255).nullish(),
  identifier_from_merchant: z.string().max(255).nullish(),
  receipt_message_html: z.string().nullish(),
  items: itemsSchema,
}));

/** POST /v15/proposed_orders */
export const proposedOrderBody = /* @__PURE__ */ schema(() => z.object({ proposed_order: z.object(posOrderFields) }));
export type ProposedOrderRequest = z.output<typeof proposedOrderBody>['proposed_order'];

/** POST /v15/completed_orders */
export const completedOrderBody = /* @__PURE__ */ schema(() => z.object({
  completed_order: z.object({
    ...posOrderFields,
    proposed_order_uuid: z.string().min(1).max(64),
    // Left null when not sent: the tip the scanned QR code asks for applies then (orders/proposals.ts).
    tip_amount: amountInCents.nullish().transform((value) => value ?? null),
    // Clients with discounts disabled send null.
    applied_discount_amount: amounts.optional,
    fees: z
      .array(feeSchema)
      .max(50)
      .nullish()
      .transform((fees) => (fees ?? []).map((entry) => entry.fee)),
  }),
}));
export type CompletedOrderRequest = z.output<typeof completedOrderBody>['completed_order'];

/** POST /v14|v15/orders/:uuid/refund */
export const refundParams = /* @__PURE__ */ schema(() => z.object({ uuid: z.string().min(1).max(64) }));
/** Body optional: `{"refund": {"manager_confirmation": "..."}}` (only merchants with a code need it). */
export const refundBody = /* @__PURE__ */ schema(() => z
  .object({ refund: z.object({ manager_confirmation: z.string().max(255).nullish() }).nullish() })
  .optional()
  .transform((body) => body ?? {}));

/** POST /v15/merchants/:merchant_id/gift_card_value_additions */
export const giftCardValueAdditionParams = /* @__PURE__ */ schema(() => z.object({ merchant_id: z.string().regex(/^\d+$/).transform(Number) }));
export const giftCardValueAdditionBody = /* @__PURE__ */ schema(() => z.object({
  gift_card_value_addition: z.object({
    payment_token_data: z.string().max(255),
    value_amount: z.number().int(),
    location_id: z.number().int().nullish(),
    order_uuid: z.string().max(255).nullish(),
    tender_types: z.array(z.string().max(64)).max(20).nullish(),
    type: z.string().max(64).nullish(),
    identifier_from_merchant: z.string().max(255).nullish(),
    external_identifier: z.string().max(255).nullish(),
  }),
}));
export type GiftCardValueAdditionRequest = z.output<typeof giftCardValueAdditionBody>['gift_card_value_addition'];

// ---------------------------------------------------------------------------------------------
// Responses

export const giftCardValueAdditionResponse = /* @__PURE__ */ schema(() => named(
  'GiftCardValueAddition',
  z.object({
    gift_card_value_addition: z.object({
      added_value_amount: cents.describe('Value loaded'),
      new_value_at_merchant_amount: cents.describe('New total value at that merchant'),
      old_value_at_merchant_amount: cents.describe('Previous total at that merchant'),
      uuid: uuid.describe('Id of the addition'),
    }),
  }),
));

export const proposedOrderResponse = /* @__PURE__ */ schema(() => named(
  'ProposedOrder',
  z.object({
    proposed_order: z.object({
      uuid,
      discount_amount: cents.describe('Merchant-funded credit the customer can apply'),
      spend_amount: cents,
      tax_amount: cents,
      exemption_amount: cents,
      location_id: integerId,
      created_at: timestamp,
    }),
  }),
));

export const completedOrderResponse = /* @__PURE__ */ schema(() => named(
  'CompletedOrder',
  z.object({
    order: z.object({
      gift_card_total_amount: cents,
      gift_card_tip_amount: cents,
      spend_amount: cents,
      tip_amount: cents,
      total_amount: cents,
      uuid,
    }),
  }),
));

export const merchantOrderResponse = /* @__PURE__ */ schema(() => named(
  'RefundedOrder',
  z.object({
    order: z.object({
      created_at: timestamp,
      merchant_funded_credit_amount: cents,
      earn_amount: cents,
      uuid,
      loyalty_id: integerId.describe("The user's id at that merchant"),
      spend_amount: cents,
      refunded_at: timestamp,
      tip_amount: cents,
      total_amount: cents,
      location_id: integerId,
      user_display_name: z.string().describe('First name and last initial'),
    }),
  }),
  'The merchant-facing order a refund answers.',
));

const userOrderColumns = /* @__PURE__ */ schema(() => ({
  balance_amount: cents.describe("Charged to the user's credit card"),
  bundle_closed_at: timestamp.nullable(),
  bundle_descriptor: z.string(),
  contribution_amount: cents.nullable(),
  contribution_target_name: z.string().nullable(),
  created_at: timestamp,
  credit_applied_amount: cents,
  credit_earned_amount: cents,
  identifier_from_merchant: z.string().nullable(),
  location_extended_address: z.string().nullable(),
  location_id: integerId,
  location_locality: z.string(),
  location_postal_code: z.string(),
  location_region: z.string(),
  location_street_address: z.string(),
  merchant_id: integerId,
  merchant_name: z.string(),
  refunded_at: timestamp.nullable(),
  spend_amount: cents,
  tip_amount: cents,
  total_amount: cents,
  transacted_at: timestamp,
  uuid,
}));

export const userOrderSummary = /* @__PURE__ */ schema(() => named('UserOrderSummary', z.object(userOrderColumns), 'A user-oriented order as listed.'));

export const userOrderItem = /* @__PURE__ */ schema(() => named(
  'UserOrderItem',
  z.object({
    category: z.string().nullable(),
    description: z.string(),
    name: z.string(),
    quantity: z.number().int(),
    sku: z.string().nullable(),
    upc: z.string().nullable(),
    charged_price_amount: cents,
    standard_price_amount: cents,
    get children() {
      return z.array(z.object({ item: userOrderItem }));
    },
  }),
));

export const userOrderDetailResponse = /* @__PURE__ */ schema(() => named(
  'UserOrder',
  z.object({
    order: z.object({
      id: orderIntegerId,
      ...userOrderColumns,
      location_latitude: z.number().nullable(),
      location_longitude: z.number().nullable(),
      location_name: z.string(),
      tax_amount: cents.nullable().describe('null when 0'),
      items: z.array(z.object({ item: userOrderItem })),
    }),
  }),
  'A user-oriented order with its details.',
));

export const userOrderList = /* @__PURE__ */ schema(() => z.array(z.object({ order: userOrderSummary })));

/** POST /v15/users/gift_card_value_orders (iOS sends merchant_id only when set; PS2 adds web_purchase). */
export const giftCardValueOrderBody = /* @__PURE__ */ schema(() => z.object({
  gift_card_value_order: z.object({
    merchant_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullish(),
    recipient_email: z.string().trim().min(3).max(254).email(),
    recipient_name: z.string().max(255).nullish(),
    recipient_message: z.string().max(1000).nullish(),
    value_amount: amountInCents,
    web_purchase: z.boolean().nullish(),
  }),
}));
export type GiftCardValueOrderRequest = z.output<typeof giftCardValueOrderBody>['gift_card_value_order'];

/** GET /v15/users/gift_card_value_orders: the buyer's gift card orders, newest first (the gifts they sent). */
export const giftCardValueOrderList = /* @__PURE__ */ schema(() => z.array(z.object({
  gift_card_value_order: z.object({
    uuid: z.string(),
    merchant_id: integerId,
    value_amount: cents,
    recipient_email: z.string(),
    recipient_name: z.string().nullable(),
    state: z.enum(['delivered', 'pending', 'refunded']).describe(
      "`delivered`: on the recipient's gift card. `pending`: the email has no account yet; the value waits for one (pending_until), then goes back to the buyer's card (`refunded`).",
    ),
    pending_until: timestamp.nullable().describe('While pending: when the value goes back to the buyer unclaimed'),
    created_at: timestamp,
  }),
})));

export const giftCardValueOrderResponse = /* @__PURE__ */ schema(() => named(
  'GiftCardValueOrder',
  z.object({
    gift_card_value_order: z.object({
      added_value_amount: cents.describe("Value added to the recipient's gift card at the merchant (or held for their email until they sign up)"),
      merchant_id: integerId,
      recipient_email: z.string(),
      uuid: z.string(),
    }),
  }),
  "The same answer whether or not the recipient's email has an account: without one, the value is held for that email and credited to the account later created with it (the buyer follows it in GET /v15/users/gift_card_value_orders); unclaimed after 60 days it is refunded to the buyer's card.",
));

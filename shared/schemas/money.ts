import * as z from '#shared/schemas/zod.ts';
import { PAYMENT_TOKEN_DATA_MAX } from './vocabularies.ts';

// The domain takes their parsed output: z.output of these schemas.

/** An amount a POS sends: integer cents, bounded so no sum of them leaves the safe integers. */
const amountInCents = z.number().check(z.int(), z.gte(0), z.lte(100_000_000));

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

export const orderItemSchema: z.ZodMiniType<ItemEnvelope> = z.lazy(() =>
  z.object({
    item: z.object({
      charged_price_amount: amountInCents,
      description: z.pipe(
        z.nullish(z.string().check(z.maxLength(1000))),
        z.transform((value) => value ?? ''),
      ),
      name: z.string().check(z.maxLength(255)),
      // Required by the contract except for child items; omitted means one.
      quantity: z.pipe(
        z.nullish(z.number().check(z.int(), z.gte(1), z.lte(MAX_ITEM_QUANTITY))),
        z.transform((value) => value ?? undefined),
      ),
      sku: z.nullish(z.string().check(z.maxLength(255))),
      category: z.nullish(z.string().check(z.maxLength(255))),
      standard_price_amount: z.pipe(
        z.nullish(amountInCents),
        z.transform((value) => value ?? undefined),
      ),
      upc: z.nullish(z.string().check(z.maxLength(255))),
      children: z.pipe(
        z.nullish(z.array(orderItemSchema).check(z.maxLength(100))),
        z.transform((children) => children?.map((child) => child.item)),
      ),
    }),
  }),
);

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

export const itemsSchema = z.pipe(
  z.nullish(z.array(orderItemSchema).check(z.maxLength(200))).check(
    z.refine((items) => nesting(items?.map((envelope) => envelope.item)) <= MAX_ITEM_NESTING, {
      error: `nest children at most ${MAX_ITEM_NESTING} levels deep`,
    }),
    z.refine((items) => orderUnits(items?.map((envelope) => envelope.item)) <= MAX_ORDER_UNITS, {
      error: `hold at most ${MAX_ORDER_UNITS} units (quantities times their parents' quantities)`,
    }),
  ),
  z.transform((items) => (items ?? []).map((envelope) => envelope.item)),
);

export const feeSchema = z.object({
  fee: z.object({
    name: z.nullish(z.string().check(z.maxLength(255))),
    type: z.enum(['delivery', 'custom', 'catering']),
    charged_price_amount: amountInCents,
    tax_amount: z.nullish(amountInCents),
    collector: z.literal('merchant'),
  }),
});

export type OrderFee = z.output<typeof feeSchema>['fee'];

export const amounts = {
  required: amountInCents,
  optional: z.pipe(
    z.nullish(amountInCents),
    z.transform((value) => value ?? 0),
  ),
};

/** A flag clients send as true, false, null or not at all: only true is true. */
const flag = z.pipe(
  z.nullish(z.boolean()),
  z.transform((value) => value ?? false),
);

/**
 * The fields a POS sends both when it proposes an order and when it completes it: the completed
 * order may differ from the proposed one only in adjusted amounts and the applied discount.
 */
export const posOrderFields = {
  location_id: z.number().check(z.int()),
  payment_token_data: z.string().check(z.maxLength(PAYMENT_TOKEN_DATA_MAX)),
  spend_amount: amounts.required,
  tax_amount: amounts.optional,
  exemption_amount: amounts.optional,
  partial_authorization_allowed: flag,
  discount_only: flag,
  cashier: z.nullish(z.string().check(z.maxLength(255))),
  register: z.nullish(z.string().check(z.maxLength(255))),
  identifier_from_merchant: z.nullish(z.string().check(z.maxLength(255))),
  receipt_message_html: z.nullish(z.string()),
  items: itemsSchema,
};

/** POST /v15/proposed_orders */
export const proposedOrderBody = z.object({ proposed_order: z.object(posOrderFields) });
export type ProposedOrderRequest = z.output<typeof proposedOrderBody>['proposed_order'];

/** POST /v15/completed_orders */
export const completedOrderBody = z.object({
  completed_order: z.object({
    ...posOrderFields,
    proposed_order_uuid: z.string().check(z.minLength(1), z.maxLength(64)),
    // Left null when not sent: the tip the scanned QR code asks for applies then (orders/proposals.ts).
    tip_amount: z.pipe(
      z.nullish(amountInCents),
      z.transform((value) => value ?? null),
    ),
    // Clients with discounts disabled send null.
    applied_discount_amount: amounts.optional,
    fees: z.pipe(
      z.nullish(z.array(feeSchema).check(z.maxLength(50))),
      z.transform((fees) => (fees ?? []).map((entry) => entry.fee)),
    ),
  }),
});
export type CompletedOrderRequest = z.output<typeof completedOrderBody>['completed_order'];

/** POST /v14|v15/orders/:uuid/refund */
export const refundParams = z.object({ uuid: z.string().check(z.minLength(1), z.maxLength(64)) });
/** Body optional: `{"refund": {"manager_confirmation": "..."}}` (only merchants with a code need it). */
export const refundBody = z.pipe(
  z.optional(z.object({ refund: z.nullish(z.object({ manager_confirmation: z.nullish(z.string().check(z.maxLength(255))) })) })),
  z.transform((body) => body ?? {}),
);

/** POST /v15/merchants/:merchant_id/gift_card_value_additions */
export const giftCardValueAdditionParams = z.object({ merchant_id: z.pipe(z.string().check(z.regex(/^\d+$/)), z.transform(Number)) });
export const giftCardValueAdditionBody = z.object({
  gift_card_value_addition: z.object({
    payment_token_data: z.string().check(z.maxLength(255)),
    value_amount: z.number().check(z.int()),
    location_id: z.nullish(z.number().check(z.int())),
    order_uuid: z.nullish(z.string().check(z.maxLength(255))),
    tender_types: z.nullish(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(20))),
    type: z.nullish(z.string().check(z.maxLength(64))),
    identifier_from_merchant: z.nullish(z.string().check(z.maxLength(255))),
    external_identifier: z.nullish(z.string().check(z.maxLength(255))),
  }),
});
export type GiftCardValueAdditionRequest = z.output<typeof giftCardValueAdditionBody>['gift_card_value_addition'];

/** POST /v15/users/gift_card_value_orders (iOS sends merchant_id only when set; PS2 adds web_purchase). */
export const giftCardValueOrderBody = z.object({
  gift_card_value_order: z.object({
    merchant_id: z.nullish(z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER))),
    recipient_email: z.string().check(z.trim(), z.minLength(3), z.maxLength(254), z.email()),
    recipient_name: z.nullish(z.string().check(z.maxLength(255))),
    recipient_message: z.nullish(z.string().check(z.maxLength(1000))),
    value_amount: amountInCents,
    web_purchase: z.nullish(z.boolean()),
  }),
});
export type GiftCardValueOrderRequest = z.output<typeof giftCardValueOrderBody>['gift_card_value_order'];

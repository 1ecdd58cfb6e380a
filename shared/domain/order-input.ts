/** Request-body schemas shared by the order endpoints (proposed and completed orders). */
import * as z from 'zod';
import type { OrderItemInput } from '#shared/domain/order-effects.ts';

const cents = z.number().int().min(0).max(100_000_000);

type ItemEnvelope = { item: OrderItemInput };

export const orderItemSchema: z.ZodType<ItemEnvelope> = z.lazy(() =>
  z.object({
    item: z.object({
      charged_price_amount: z.number().int().min(0),
      description: z.string().max(1000).nullish().transform((value) => value ?? ''),
      name: z.string().max(255),
      quantity: z.number().int().min(0).nullish().transform((value) => value ?? undefined),
      sku: z.string().max(255).nullish(),
      category: z.string().max(255).nullish(),
      standard_price_amount: z.number().int().min(0).nullish().transform((value) => value ?? undefined),
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

function nesting(items: readonly OrderItemInput[] | undefined): number {
  return Math.max(0, ...(items ?? []).map((item) => 1 + nesting(item.children)));
}

export const itemsSchema = z
  .array(orderItemSchema)
  .max(200)
  .nullish()
  .refine((items) => nesting(items?.map((envelope) => envelope.item)) <= MAX_ITEM_NESTING, {
    error: `nest children at most ${MAX_ITEM_NESTING} levels deep`,
  })
  .transform((items) => (items ?? []).map((envelope) => envelope.item));

export const feeSchema = z.object({
  fee: z.object({
    name: z.string().max(255).nullish(),
    type: z.enum(['delivery', 'custom', 'catering']),
    charged_price_amount: z.number().int().min(0),
    tax_amount: z.number().int().min(0).nullish(),
    collector: z.literal('merchant'),
  }),
});

export const amounts = {
  required: cents,
  optional: cents.nullish().transform((value) => value ?? 0),
};

/**
 * The fields a POS sends both when it proposes an order and when it completes it: the completed
 * order may differ from the proposed one only in adjusted amounts and the applied discount.
 */
export const posOrderFields = {
  location_id: z.number().int(),
  payment_token_data: z.string().max(255),
  spend_amount: amounts.required,
  tax_amount: amounts.optional,
  exemption_amount: amounts.optional,
  partial_authorization_allowed: z.boolean().nullish(),
  discount_only: z.boolean().nullish(),
  cashier: z.string().max(255).nullish(),
  register: z.string().max(255).nullish(),
  identifier_from_merchant: z.string().max(255).nullish(),
  receipt_message_html: z.string().nullish(),
  items: itemsSchema,
};

import * as z from '#shared/schemas/zod.ts';
import { roundedDecimal } from './common.ts';

// ---------------------------------------------------------------------------------------------
// States

/**
 * States of an order-ahead order, as stored and as answered: the contract's three validation states,
 * then the completion states LevelUp documents (`submitting`, `charging`, `completed`, `rejected`) and
 * `submitted` (charged and forwarded, waiting for the provider's answer; a name the iOS SDK knows).
 */
export const ORDER_AHEAD_STATES = [
  'externally_validating',
  'externally_valid',
  'externally_invalid',
  'submitting',
  'charging',
  'submitted',
  'completed',
  'rejected',
] as const;
export type OrderAheadState = (typeof ORDER_AHEAD_STATES)[number];

/**
 * The iOS SDK's names for the validation states (its state parser knows `validating`, `valid`, `invalid`,
 * `submitting`, `submitted`, `charging`, `completed`, `rejected`, `canceled`). Accepted where a client
 * sends a state; responses always carry the contract's names.
 */
const IOS_STATE_NAMES: Record<string, OrderAheadState> = {
  validating: 'externally_validating',
  valid: 'externally_valid',
  invalid: 'externally_invalid',
  canceled: 'rejected',
};

/** A state name as a client may send it (the contract's or the iOS SDK's), read as the contract's name. */
export const orderAheadStateInput = z.pipe(
  z.string().check(z.maxLength(40)),
  z.transform((name, context) => {
    const known = (ORDER_AHEAD_STATES as readonly string[]).includes(name) ? (name as OrderAheadState) : IOS_STATE_NAMES[name];
    if (known === undefined) {
      context.issues.push({ code: 'custom', message: `unknown order state ${name}`, input: context.value });
      return z.NEVER;
    }
    return known;
  }),
);

/** Bounds that keep one order's validation and storage small (an item is at most 400 KB). */
export const MAX_CART_LINES = 100;
export const MAX_OPTIONS_PER_LINE = 50;
export { MAX_LINE_QUANTITY } from './vocabularies.ts';
export const MAX_UPSELL_IDS = 50;
/** Longest instructions stored; the location's own (smaller) limit is checked by validation. */
export const MAX_STORED_INSTRUCTIONS = 1000;

const id = z.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER));
const text = z.optional(z.nullable(z.string().check(z.maxLength(MAX_STORED_INSTRUCTIONS))));

const cartLineSchema = z.object({
  item: z.object({
    id,
    quantity: z.optional(z.number().check(z.int())),
    upsell_id: z.optional(z.nullable(id)),
    special_instructions: text,
    option_ids: z.optional(z.nullable(z.array(id).check(z.maxLength(MAX_OPTIONS_PER_LINE)))),
  }),
});

/** `{"order": {...}}` of POST /v15/order_ahead/orders and POST /v15/upsells. Clients send absent values as null. */
export const cartBodySchema = z.object({
  order: z.object({
    location_id: z.optional(z.nullable(id)),
    conveyance: z.optional(
      z.nullable(
        z.object({
          fulfillment_type: z.optional(z.nullable(z.string())),
          desired_ready_time: z.optional(z.nullable(z.string().check(z.maxLength(40)))),
          delivery_address_id: z.optional(z.nullable(id)),
        }),
      ),
    ),
    items: z.optional(z.nullable(z.array(cartLineSchema).check(z.maxLength(MAX_CART_LINES)))),
    upsell_ids: z.optional(z.nullable(z.array(id).check(z.maxLength(MAX_UPSELL_IDS)))),
    special_instructions: text,
    tip_amount: z.optional(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(100_000_00)))),
    // Kept to 4 decimal places: a denormal percentage (5e-324) is 0, not a number DynamoDB refuses to store.
    tip_percent: z.optional(z.nullable(z.pipe(z.number().check(z.gte(0), z.lte(100)), roundedDecimal(4)))),
    /** Some clients echo the status they were given; read in either vocabulary and otherwise ignored (the server decides states). */
    state: z.optional(z.nullable(orderAheadStateInput)),
  }),
});
export type CartBody = z.output<typeof cartBodySchema>;

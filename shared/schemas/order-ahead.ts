import * as z from 'zod';
import { WEEKDAYS } from '#shared/time.ts';
import { cents, integerId, roundedDecimal, timestamp, url, uuid } from './common.ts';
import { named, schema } from './registry.ts';
import { MAX_LINE_QUANTITY } from './vocabularies.ts';

// ---------------------------------------------------------------------------------------------
// States

/**
 * States of an order-ahead order, as stored and as answered: the contract's three validation states,
 * then the completion states LevelUp documents (`submitting`, `charging`, `completed`, `rejected`) and
 * `submitted` (charged and forwarded, waiting for the provider's answer; a name the iOS SDK knows).
 */
export const ORDER_AHEAD_STATES = ['externally_validating', 'externally_valid', 'externally_invalid', 'submitting', 'charging', 'submitted', 'completed', 'rejected'] as const;
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
export const orderAheadStateInput = /* @__PURE__ */ schema(() => z
  .string()
  .max(40)
  .transform((name, context) => {
    const known = (ORDER_AHEAD_STATES as readonly string[]).includes(name) ? (name as OrderAheadState) : IOS_STATE_NAMES[name];
    if (known === undefined) {
      context.addIssue({ code: 'custom', message: `unknown order state ${name}` });
      return z.NEVER;
    }
    return known;
  }));

// ---------------------------------------------------------------------------------------------
// Requests

/** Bounds that keep one order's validation and storage small (an item is at most 400 KB). */
export const MAX_CART_LINES = 100;
export const MAX_OPTIONS_PER_LINE = 50;
export { MAX_LINE_QUANTITY } from './vocabularies.ts';
export const MAX_UPSELL_IDS = 50;
/** Longest instructions stored; the location's own (smaller) limit is checked by validation. */
export const MAX_STORED_INSTRUCTIONS = 1000;

const id = /* @__PURE__ */ schema(() => z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
const text = /* @__PURE__ */ schema(() => z.string().max(MAX_STORED_INSTRUCTIONS).nullable().optional());

const cartLineSchema = /* @__PURE__ */ schema(() => z.object({
  item: z.object({
    id,
    quantity: z.number().int().optional(),
    upsell_id: id.nullable().optional(),
    special_instructions: text,
    option_ids: z.array(id).max(MAX_OPTIONS_PER_LINE).nullable().optional(),
  }),
}));

/** `{"order": {...}}` of POST /v15/order_ahead/orders and POST /v15/upsells. Clients send absent values as null. */
export const cartBodySchema = /* @__PURE__ */ schema(() => z.object({
  order: z.object({
    location_id: id.nullable().optional(),
    conveyance: z
      .object({
        fulfillment_type: z.string().nullable().optional(),
        desired_ready_time: z.string().max(40).nullable().optional(),
        delivery_address_id: id.nullable().optional(),
      })
      .nullable()
      .optional(),
    items: z.array(cartLineSchema).max(MAX_CART_LINES).nullable().optional(),
    upsell_ids: z.array(id).max(MAX_UPSELL_IDS).nullable().optional(),
    special_instructions: text,
    tip_amount: z.number().int().min(0).max(100_000_00).nullable().optional(),
    // Kept to 4 decimal places: a denormal percentage (5e-324) is 0, not a number DynamoDB refuses to store.
    tip_percent: z.number().min(0).max(100).pipe(roundedDecimal(4)).nullable().optional(),
    /** Some clients echo the status they were given; read in either vocabulary and otherwise ignored (the server decides states). */
    state: orderAheadStateInput.nullable().optional(),
  }),
}));
export type CartBody = z.output<typeof cartBodySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

/** What the start and the completion answer (and the completion's 202 polls): where to poll, the state, the uuid. */
export const orderAheadStatusResponse = /* @__PURE__ */ schema(() => named(
  'OrderAheadStatus',
  z.object({
    order: z.object({
      order_url: url.describe('Poll this URL with GET; do not construct it'),
      state: z.enum(ORDER_AHEAD_STATES),
      uuid,
    }),
  }),
));

const upsellItemDetail = /* @__PURE__ */ schema(() => z.object({
  description: z.string(),
  id: integerId.describe('Order ahead menu item id'),
  image_url: z.string().describe('Base URL of the item image, empty when none'),
  name: z.string(),
  price_amount: z.string().describe('Price in cents, as a string (documented so)'),
}));

const polledItem = /* @__PURE__ */ schema(() => z.object({
  item: z.object({
    id: integerId,
    name: z.string(),
    option_ids: z.array(integerId),
    price_amount: cents,
    quantity: z.number().int(),
    selected_options: z.array(
      z.object({
        option: z.object({ id: integerId, free_quantity: z.number().int(), name: z.string(), price_amount: cents, quantity: z.number().int() }),
      }),
    ),
    selected_options_description: z.string(),
    special_instructions: z.string().nullable(),
    upsell_id: integerId.nullable(),
  }),
}));

const conveyance = /* @__PURE__ */ schema(() => z.object({
  fulfillment_type: z.enum(['pickup', 'delivery']),
  desired_ready_time: timestamp.nullable(),
  delivery_address_id: integerId.nullable(),
}));

export const orderAheadOrderResponse = /* @__PURE__ */ schema(() => named(
  'OrderAheadOrder',
  z.object({
    order: z.object({
      allows_special_instructions: z.boolean(),
      special_instructions_character_limit: z.number().int(),
      available_at: z.array(timestamp),
      soonest_available_at: timestamp,
      conveyance,
      delivery_fee_amount: cents,
      displayed_upsell_ids: z.array(integerId),
      discount_amount: cents,
      instructions: z.string().nullable(),
      items: z.array(polledItem),
      latitude: z.number(),
      longitude: z.number(),
      location_id: integerId,
      location_title: z.string(),
      location_subtitle: z.string(),
      merchant_name: z.string(),
      order_completion_url: url.describe('POST here to complete (charge) the order'),
      provider_service_fee_amount: cents,
      service_fee_amount: cents,
      special_instructions: z.string().nullable(),
      spend_amount: cents,
      state: z.enum(ORDER_AHEAD_STATES),
      subtotal: cents,
      tax_amount: cents,
      tip_amount: cents,
      total_amount: cents,
      upsell: z
        .object({ id: integerId, prompt: z.string(), show_prices: z.boolean(), items: z.array(z.object({ item: upsellItemDetail })) })
        .nullable(),
      uuid,
    }),
  }),
  'A validated order ahead order (the poll answer once validation succeeded).',
));

export const completedOrderAheadResponse = /* @__PURE__ */ schema(() => named(
  'CompletedOrderAheadOrder',
  z.object({
    order: z.object({
      conveyance,
      delivery_fee_amount: cents,
      delivery_instructions: z.string().nullable(),
      delivery_uuid: z.string().nullable(),
      discount_amount: cents.describe('Merchant-funded credit and gift card value applied'),
      instructions: z.string().describe('Pickup or delivery instructions (empty when none)'),
      items: z.array(polledItem),
      latitude: z.number(),
      longitude: z.number(),
      location_id: integerId,
      location_subtitle: z.string(),
      location_title: z.string(),
      merchant_name: z.string(),
      order_number: z.string().describe("The ordering provider's order number (a string, as the iOS SDK reads it)"),
      order_url: url,
      phone: z.string().describe("The location's phone number (empty when unknown)"),
      ready_at: timestamp.describe('When the provider will have it ready'),
      service_fee_amount: cents,
      special_instructions: z.string().nullable(),
      spend_amount: cents,
      state: z.literal('completed'),
      subtotal: cents,
      tax_amount: cents,
      tip_amount: cents,
      total_amount: cents.describe('Charged to the card (the balance, as for an in-store order)'),
      uuid,
    }),
  }),
  'An order ahead order the provider accepted (the completion poll answer once it succeeded).',
));

const suggestedOrder = /* @__PURE__ */ schema(() => z.object({
  order: z.object({
    banner: z.enum(['past', 'popular']),
    conveyance,
    created_at: timestamp.describe('When this cart was last completed'),
    description: z.string().describe('Item names'),
    items: z.array(z.object({ item: z.object({ id: integerId, quantity: z.number().int(), special_instructions: z.string().nullable(), option_ids: z.array(integerId) }) })),
    location_id: integerId,
    menu_url: url,
    merchant_name: z.string(),
    special_instructions: z.string().nullable(),
    total_amount: cents,
    uuid,
    walking_time_minutes: z.number().int().optional().describe('With lat and lng only'),
  }),
}));

export const suggestedOrdersResponse = /* @__PURE__ */ schema(() => named('SuggestedOrders', z.array(suggestedOrder).max(25), 'Carts ready to start again: past carts of the user, then popular carts of the location.'));

export const upsellSuggestionResponse = /* @__PURE__ */ schema(() => named(
  'UpsellSuggestion',
  z.object({
    upsell: z.object({
      id: integerId,
      prompt: z.string(),
      show_prices: z.boolean(),
      items: z.array(z.object({ item: z.object({ id: integerId }) })),
    }),
  }),
));

const availabilityWindows = /* @__PURE__ */ schema(() => z.array(z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(WEEKDAYS)) })));

export const menuResponse = /* @__PURE__ */ schema(() => named(
  'Menu',
  z.object({
    menu: z.object({
      id: integerId,
      location_id: integerId,
      time_zone: z.string(),
      updated_at: timestamp,
      allows_special_instructions: z.boolean(),
      special_instructions_character_limit: z.number().int(),
      category_groups: z.array(z.object({ category_group: z.object({ id: integerId, name: z.string(), description: z.string().nullable(), display_order: z.number().int() }) })),
      categories: z.array(
        z.object({
          category: z.object({
            id: integerId,
            name: z.string(),
            description: z.string().nullable(),
            category_group_id: integerId.nullable(),
            display_order: z.number().int(),
            availability_windows: availabilityWindows,
            items: z.array(
              z.object({
                item: z.object({
                  id: integerId,
                  name: z.string(),
                  description: z.string(),
                  display_order: z.number().int(),
                  price_amount: cents,
                  image_url: z.string().nullable().describe('Base URL of the item picture: add density, width and height'),
                  nutrition: z.record(z.string(), z.string()),
                  sku: z.string().nullable(),
                  upc: z.string().nullable(),
                  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
                  allows_special_instructions: z.boolean(),
                  special_instructions_character_limit: z.number().int(),
                  tax_rate: z.number().describe('Decimal (0.0825 = 8.25%)'),
                  timescopes: z.array(
                    z.object({ day_of_week_starts_at: z.string(), day_of_week_ends_at: z.string(), time_of_day_starts_at: z.string(), time_of_day_ends_at: z.string() }),
                  ),
                  available_now: z.boolean(),
                  availability_windows: availabilityWindows,
                  option_groups: z.array(
                    z.object({
                      option_group: z.object({
                        id: integerId,
                        name: z.string(),
                        display_order: z.number().int(),
                        minimum_choices: z.number().int(),
                        maximum_choices: z.number().int().nullable(),
                        free_choices: z.number().int(),
                        default_option_ids: z.array(integerId),
                        options: z.array(
                          z.object({
                            option: z.object({ id: integerId, name: z.string(), display_order: z.number().int(), price_amount: cents, available: z.boolean() }),
                          }),
                        ),
                      }),
                    }),
                  ),
                  price_with_defaults_amount: cents,
                }),
              }),
            ),
          }),
        }),
      ),
    }),
  }),
  'An order ahead menu as apps read it (local times are in time_zone).',
));

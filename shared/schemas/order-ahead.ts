import * as z from 'zod';
import { WEEKDAYS } from '#shared/time.ts';
import { cents, integerId, timestamp, url, uuid } from './common.ts';
import { named } from './registry.ts';

// ---------------------------------------------------------------------------------------------
// Requests

/** Bounds that keep one order's validation and storage small (an item is at most 400 KB). */
export const MAX_CART_LINES = 100;
export const MAX_OPTIONS_PER_LINE = 50;
export const MAX_LINE_QUANTITY = 99;
export const MAX_UPSELL_IDS = 50;
/** Longest instructions stored; the location's own (smaller) limit is checked by validation. */
export const MAX_STORED_INSTRUCTIONS = 1000;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const text = z.string().max(MAX_STORED_INSTRUCTIONS).nullable().optional();

const cartLineSchema = z.object({
  item: z.object({
    id,
    quantity: z.number().int().optional(),
    upsell_id: id.nullable().optional(),
    special_instructions: text,
    option_ids: z.array(id).max(MAX_OPTIONS_PER_LINE).nullable().optional(),
  }),
});

/** `{"order": {...}}` of POST /v15/order_ahead/orders and POST /v15/upsells. Clients send absent values as null. */
export const cartBodySchema = z.object({
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
    tip_percent: z.number().min(0).max(100).nullable().optional(),
  }),
});
export type CartBody = z.output<typeof cartBodySchema>;

// ---------------------------------------------------------------------------------------------
// Responses

const ORDER_AHEAD_STATES = ['externally_validating', 'externally_valid', 'externally_invalid', 'completed'] as const;

export const orderAheadStartResponse = named(
  'OrderAheadStatus',
  z.object({
    order: z.object({
      order_url: url.describe('Poll this URL with GET; do not construct it'),
      state: z.enum(ORDER_AHEAD_STATES),
      uuid,
    }),
  }),
);

const upsellItemDetail = z.object({
  description: z.string(),
  id: integerId.describe('Order ahead menu item id'),
  image_url: z.string().describe('Base URL of the item image, empty when none'),
  name: z.string(),
  price_amount: z.string().describe('Price in cents, as a string (documented so)'),
});

export const orderAheadOrderResponse = named(
  'OrderAheadOrder',
  z.object({
    order: z.object({
      allows_special_instructions: z.boolean(),
      special_instructions_character_limit: z.number().int(),
      available_at: z.array(timestamp),
      soonest_available_at: timestamp,
      conveyance: z.object({
        fulfillment_type: z.enum(['pickup', 'delivery']),
        desired_ready_time: timestamp.nullable(),
        delivery_address_id: integerId.nullable(),
      }),
      delivery_fee_amount: cents,
      displayed_upsell_ids: z.array(integerId),
      discount_amount: cents,
      instructions: z.string().nullable(),
      items: z.array(
        z.object({
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
        }),
      ),
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
);

export const orderAheadCompletionResponse = named(
  'OrderAheadCompletion',
  z.object({
    order: z.object({
      order_url: url.describe("The completed order's user-oriented details"),
      state: z.literal('completed'),
      uuid,
      gift_card_total_amount: cents,
      gift_card_tip_amount: cents,
      spend_amount: cents,
      tip_amount: cents,
      total_amount: cents,
    }),
  }),
);

export const upsellSuggestionResponse = named(
  'UpsellSuggestion',
  z.object({
    upsell: z.object({
      id: integerId,
      prompt: z.string(),
      show_prices: z.boolean(),
      items: z.array(z.object({ item: z.object({ id: integerId }) })),
    }),
  }),
);

const availabilityWindows = z.array(z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(WEEKDAYS)) }));

export const menuResponse = named(
  'Menu',
  z.object({
    menu: z.object({
      id: integerId,
      location_id: integerId,
      time_zone: z.string(),
      updated_at: timestamp,
      categories: z.array(
        z.object({
          category: z.object({
            id: integerId,
            name: z.string(),
            description: z.string().nullable(),
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
                  image_url: z.string().nullable(),
                  nutrition: z.record(z.string(), z.string()),
                  sku: z.string().nullable(),
                  upc: z.string().nullable(),
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
);

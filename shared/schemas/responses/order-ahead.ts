/** What the order-ahead operations answer: orders and their states, menus, suggestions, upsells (the requests: shared/schemas/order-ahead.ts). */
import * as z from '#shared/schemas/zod.ts';
import { WEEKDAYS } from '#shared/time.ts';
import { ORDER_AHEAD_STATES } from '#shared/schemas/order-ahead.ts';
import { cents, integerId, timestamp, url, uuid } from './common.ts';
import { named, resource } from './registry.ts';

/** What the start and the completion answer (and the completion's 202 polls): where to poll, the state, the uuid. */
export const orderAheadStatusResponse = resource('OrderAheadStatus', 'order', {
  order_url: url.check(z.describe('Poll this URL with GET; do not construct it')),
  state: z.enum(ORDER_AHEAD_STATES),
  uuid,
});

const upsellItemDetail = z.object({
  description: z.string(),
  id: integerId.check(z.describe('Order ahead menu item id')),
  image_url: z.string().check(z.describe('Base URL of the item image, empty when none')),
  name: z.string(),
  price_amount: z.string().check(z.describe('Price in cents, as a string (documented so)')),
});

const polledItem = z.object({
  item: z.object({
    id: integerId,
    name: z.string(),
    option_ids: z.array(integerId),
    price_amount: cents,
    quantity: z.number().check(z.int()),
    selected_options: z.array(
      z.object({
        option: z.object({
          id: integerId,
          free_quantity: z.number().check(z.int()),
          name: z.string(),
          price_amount: cents,
          quantity: z.number().check(z.int()),
        }),
      }),
    ),
    selected_options_description: z.string(),
    special_instructions: z.nullable(z.string()),
    upsell_id: z.nullable(integerId),
  }),
});

const conveyance = z.object({
  fulfillment_type: z.enum(['pickup', 'delivery']),
  desired_ready_time: z.nullable(timestamp),
  delivery_address_id: z.nullable(integerId),
});

export const orderAheadOrderResponse = resource(
  'OrderAheadOrder',
  'order',
  {
    allows_special_instructions: z.boolean(),
    special_instructions_character_limit: z.number().check(z.int()),
    available_at: z.array(timestamp),
    soonest_available_at: timestamp,
    conveyance,
    delivery_fee_amount: cents,
    displayed_upsell_ids: z.array(integerId),
    discount_amount: cents,
    instructions: z.nullable(z.string()),
    items: z.array(polledItem),
    latitude: z.number(),
    longitude: z.number(),
    location_id: integerId,
    location_title: z.string(),
    location_subtitle: z.string(),
    merchant_name: z.string(),
    order_completion_url: url.check(z.describe('POST here to complete (charge) the order')),
    provider_service_fee_amount: cents,
    service_fee_amount: cents,
    special_instructions: z.nullable(z.string()),
    spend_amount: cents,
    state: z.enum(ORDER_AHEAD_STATES),
    subtotal: cents,
    tax_amount: cents,
    tip_amount: cents,
    total_amount: cents,
    upsell: z.nullable(z.object({ id: integerId, prompt: z.string(), show_prices: z.boolean(), items: z.array(z.object({ item: upsellItemDetail })) })),
    uuid,
  },
  'A validated order ahead order (the poll answer once validation succeeded).',
);

export const completedOrderAheadResponse = resource(
  'CompletedOrderAheadOrder',
  'order',
  {
    conveyance,
    delivery_fee_amount: cents,
    delivery_instructions: z.nullable(z.string()),
    delivery_uuid: z.nullable(z.string()),
    discount_amount: cents.check(z.describe('Merchant-funded credit and gift card value applied')),
    instructions: z.string().check(z.describe('Pickup or delivery instructions (empty when none)')),
    items: z.array(polledItem),
    latitude: z.number(),
    longitude: z.number(),
    location_id: integerId,
    location_subtitle: z.string(),
    location_title: z.string(),
    merchant_name: z.string(),
    order_number: z.string().check(z.describe("The ordering provider's order number (a string, as the iOS SDK reads it)")),
    order_url: url,
    phone: z.string().check(z.describe("The location's phone number (empty when unknown)")),
    ready_at: timestamp.check(z.describe('When the provider will have it ready')),
    service_fee_amount: cents,
    special_instructions: z.nullable(z.string()),
    spend_amount: cents,
    state: z.literal('completed'),
    subtotal: cents,
    tax_amount: cents,
    tip_amount: cents,
    total_amount: cents.check(z.describe('Charged to the card (the balance, as for an in-store order)')),
    uuid,
  },
  'An order ahead order the provider accepted (the completion poll answer once it succeeded).',
);

const suggestedOrder = z.object({
  order: z.object({
    banner: z.enum(['past', 'popular']),
    conveyance,
    created_at: timestamp.check(z.describe('When this cart was last completed')),
    description: z.string().check(z.describe('Item names')),
    items: z.array(
      z.object({
        item: z.object({ id: integerId, quantity: z.number().check(z.int()), special_instructions: z.nullable(z.string()), option_ids: z.array(integerId) }),
      }),
    ),
    location_id: integerId,
    menu_url: url,
    merchant_name: z.string(),
    special_instructions: z.nullable(z.string()),
    total_amount: cents,
    uuid,
    walking_time_minutes: z.optional(z.number().check(z.int())).check(z.describe('With lat and lng only')),
  }),
});

export const suggestedOrdersResponse = named(
  'SuggestedOrders',
  z.array(suggestedOrder).check(z.maxLength(25)),
  'Carts ready to start again: past carts of the user, then popular carts of the location.',
);

export const upsellSuggestionResponse = resource('UpsellSuggestion', 'upsell', {
  id: integerId,
  prompt: z.string(),
  show_prices: z.boolean(),
  items: z.array(z.object({ item: z.object({ id: integerId }) })),
});

const availabilityWindows = z.array(z.object({ start: z.string(), end: z.string(), days: z.array(z.enum(WEEKDAYS)) }));

export const menuResponse = resource(
  'Menu',
  'menu',
  {
    id: integerId,
    location_id: integerId,
    time_zone: z.string(),
    updated_at: timestamp,
    allows_special_instructions: z.boolean(),
    special_instructions_character_limit: z.number().check(z.int()),
    category_groups: z.array(
      z.object({
        category_group: z.object({ id: integerId, name: z.string(), description: z.nullable(z.string()), display_order: z.number().check(z.int()) }),
      }),
    ),
    categories: z.array(
      z.object({
        category: z.object({
          id: integerId,
          name: z.string(),
          description: z.nullable(z.string()),
          category_group_id: z.nullable(integerId),
          display_order: z.number().check(z.int()),
          availability_windows: availabilityWindows,
          items: z.array(
            z.object({
              item: z.object({
                id: integerId,
                name: z.string(),
                description: z.string(),
                display_order: z.number().check(z.int()),
                price_amount: cents,
                image_url: z.nullable(z.string()).check(z.describe('Base URL of the item picture: add density, width and height')),
                nutrition: z.record(z.string(), z.string()),
                sku: z.nullable(z.string()),
                upc: z.nullable(z.string()),
                metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
                allows_special_instructions: z.boolean(),
                special_instructions_character_limit: z.number().check(z.int()),
                tax_rate: z.number().check(z.describe('Decimal (0.0825 = 8.25%)')),
                timescopes: z.array(
                  z.object({
                    day_of_week_starts_at: z.string(),
                    day_of_week_ends_at: z.string(),
                    time_of_day_starts_at: z.string(),
                    time_of_day_ends_at: z.string(),
                  }),
                ),
                available_now: z.boolean(),
                availability_windows: availabilityWindows,
                option_groups: z.array(
                  z.object({
                    option_group: z.object({
                      id: integerId,
                      name: z.string(),
                      display_order: z.number().check(z.int()),
                      minimum_choices: z.number().check(z.int()),
                      maximum_choices: z.nullable(z.number().check(z.int())),
                      free_choices: z.number().check(z.int()),
                      default_option_ids: z.array(integerId),
                      options: z.array(
                        z.object({
                          option: z.object({
                            id: integerId,
                            name: z.string(),
                            display_order: z.number().check(z.int()),
                            price_amount: cents,
                            available: z.boolean(),
                          }),
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
  },
  'An order ahead menu as apps read it (local times are in time_zone).',
);

/**
 * A small sample menu (the demo seed and tests publish it): a category per daypart, an item whose
 * option ids are above 2^32 (as POS systems issue them), an option group with free choices, a
 * breakfast item limited to mornings, and an upsell triggered by the burrito.
 */
import type { MenuInput } from './menu.ts';

/** Option ids above the 32-bit range; exact as JSON numbers (below 2^53). */
export const SAMPLE_IDS = {
  tots: 101,
  burrito: 102,
  water: 103,
  cookie: 104,
  breakfastSandwich: 105,
  sizeGroup: 201,
  toppingsGroup: 202,
  small: 4_294_967_296 + 11,
  large: 4_294_967_296 + 12,
  cheese: 9_007_199_254_740_000 + 21,
  guacamole: 9_007_199_254_740_000 + 22,
  salsa: 9_007_199_254_740_000 + 23,
  upsell: 301,
  foodGroup: 401,
  drinksGroup: 402,
} as const;

export function sampleMenu(options: { taxRateBasisPoints?: number; serviceFeeAmount?: number; deliveryFeeAmount?: number } = {}): MenuInput {
  const ids = SAMPLE_IDS;
  return {
    settings: {
      tax_rate_basis_points: options.taxRateBasisPoints ?? 1000,
      delivery_fee_amount: options.deliveryFeeAmount ?? 299,
      service_fee_amount: options.serviceFeeAmount ?? 50,
      provider_service_fee_amount: 0,
      allows_special_instructions: true,
      special_instructions_character_limit: 80,
      pickup_instructions: 'Pick up your order at the counter under the "Order ahead" sign.',
      delivery_instructions: 'Your order will be handed to you at the door.',
      delivery_minutes: 30,
      scheduling_horizon_minutes: 240,
    },
    category_groups: [
      { id: ids.foodGroup, name: 'Food', description: 'Made to order.' },
      { id: ids.drinksGroup, name: 'Drinks and sweets', description: null },
    ],
    categories: [
      {
        id: 1,
        name: 'Appetizers',
        description: 'Small dishes to share.',
        category_group_id: ids.foodGroup,
        items: [
          {
            id: ids.tots,
            name: 'Tater Tots',
            description: 'Try our tots!',
            price_amount: 299,
            sku: '5586F636',
            image_url: 'https://images.example.com/menu/tater-tots.jpg',
            nutrition: { calories: '390' },
            metadata: { spicy: false, station: 'fryer' },
            option_groups: [
              {
                id: ids.sizeGroup,
                name: 'Size',
                minimum_choices: 1,
                maximum_choices: 1,
                default_option_ids: [ids.small],
                options: [
                  { id: ids.small, name: 'Small', price_amount: 99 },
                  { id: ids.large, name: 'Large', price_amount: 199 },
                ],
              },
            ],
          },
        ],
      },
      {
        id: 2,
        name: 'Lunch',
        description: null,
        category_group_id: ids.foodGroup,
        items: [
          {
            id: ids.burrito,
            name: 'Burrito',
            description: 'A food torpedo.',
            price_amount: 699,
            option_groups: [
              {
                id: ids.toppingsGroup,
                name: 'Toppings',
                minimum_choices: 0,
                maximum_choices: 3,
                free_choices: 1,
                default_option_ids: [ids.cheese],
                options: [
                  { id: ids.cheese, name: 'Cheese', price_amount: 100 },
                  { id: ids.guacamole, name: 'Guacamole', price_amount: 250 },
                  { id: ids.salsa, name: 'Salsa', price_amount: 0 },
                ],
              },
            ],
          },
        ],
      },
      {
        id: 3,
        name: 'Drinks and sweets',
        description: null,
        category_group_id: ids.drinksGroup,
        items: [
          { id: ids.water, name: 'Water', description: 'Still water.', price_amount: 149 },
          { id: ids.cookie, name: 'Cookie', description: 'Chocolate chip, baked daily.', price_amount: 199 },
        ],
      },
      {
        id: 4,
        name: 'Breakfast',
        description: 'Served until 10:30.',
        category_group_id: ids.foodGroup,
        availability_windows: [{ start: '06:00', end: '10:30' }],
        items: [{ id: ids.breakfastSandwich, name: 'Breakfast Sandwich', description: 'Egg and cheese.', price_amount: 549 }],
      },
    ],
    upsells: [
      {
        id: ids.upsell,
        prompt: 'Add a drink or something sweet?',
        show_prices: true,
        item_ids: [ids.water, ids.cookie],
        trigger_item_ids: [ids.burrito],
        segment: { kind: 'everyone' },
      },
    ],
  };
}

/** What the money operations answer: orders, gift card value additions and orders (the requests: shared/schemas/money.ts). */
import * as z from '#shared/schemas/zod.ts';
import { cents, integerId, orderIntegerId, timestamp, uuid } from './common.ts';
import { named, resource } from './registry.ts';

export const giftCardValueAdditionResponse = resource('GiftCardValueAddition', 'gift_card_value_addition', {
  added_value_amount: cents.check(z.describe('Value loaded')),
  new_value_at_merchant_amount: cents.check(z.describe('New total value at that merchant')),
  old_value_at_merchant_amount: cents.check(z.describe('Previous total at that merchant')),
  uuid: uuid.check(z.describe('Id of the addition')),
});

export const proposedOrderResponse = resource('ProposedOrder', 'proposed_order', {
  uuid,
  discount_amount: cents.check(z.describe('Merchant-funded credit the customer can apply')),
  spend_amount: cents,
  tax_amount: cents,
  exemption_amount: cents,
  location_id: integerId,
  created_at: timestamp,
});

export const completedOrderResponse = resource('CompletedOrder', 'order', {
  gift_card_total_amount: cents,
  gift_card_tip_amount: cents,
  spend_amount: cents,
  tip_amount: cents,
  total_amount: cents,
  uuid,
});

export const merchantOrderResponse = resource(
  'RefundedOrder',
  'order',
  {
    created_at: timestamp,
    merchant_funded_credit_amount: cents,
    earn_amount: cents,
    uuid,
    loyalty_id: integerId.check(z.describe("The user's id at that merchant")),
    spend_amount: cents,
    refunded_at: timestamp,
    tip_amount: cents,
    total_amount: cents,
    location_id: integerId,
    user_display_name: z.string().check(z.describe('First name and last initial')),
  },
  'The merchant-facing order a refund answers.',
);

const userOrderColumns = {
  balance_amount: cents.check(z.describe("Charged to the user's credit card")),
  bundle_closed_at: z.nullable(timestamp),
  bundle_descriptor: z.string(),
  contribution_amount: z.nullable(cents),
  contribution_target_name: z.nullable(z.string()),
  created_at: timestamp,
  credit_applied_amount: cents,
  credit_earned_amount: cents,
  identifier_from_merchant: z.nullable(z.string()),
  location_extended_address: z.nullable(z.string()),
  location_id: integerId,
  location_locality: z.string(),
  location_postal_code: z.string(),
  location_region: z.string(),
  location_street_address: z.string(),
  merchant_id: integerId,
  merchant_name: z.string(),
  refunded_at: z.nullable(timestamp),
  spend_amount: cents,
  tip_amount: cents,
  total_amount: cents,
  transacted_at: timestamp,
  uuid,
};

export const userOrderSummary = named('UserOrderSummary', z.object(userOrderColumns), 'A user-oriented order as listed.');

export const userOrderItem = named(
  'UserOrderItem',
  z.object({
    category: z.nullable(z.string()),
    description: z.string(),
    name: z.string(),
    quantity: z.number().check(z.int()),
    sku: z.nullable(z.string()),
    upc: z.nullable(z.string()),
    charged_price_amount: cents,
    standard_price_amount: cents,
    get children() {
      return z.array(z.object({ item: userOrderItem }));
    },
  }),
);

export const userOrderDetailResponse = resource(
  'UserOrder',
  'order',
  {
    id: orderIntegerId,
    ...userOrderColumns,
    location_latitude: z.nullable(z.number()),
    location_longitude: z.nullable(z.number()),
    location_name: z.string(),
    tax_amount: z.nullable(cents).check(z.describe('null when 0')),
    items: z.array(z.object({ item: userOrderItem })),
  },
  'A user-oriented order with its details.',
);

export const userOrderList = z.array(z.object({ order: userOrderSummary }));

/** GET /v15/users/gift_card_value_orders: the buyer's gift card orders, newest first (the gifts they sent). */
export const giftCardValueOrderList = z.array(
  z.object({
    gift_card_value_order: z.object({
      uuid: z.string(),
      merchant_id: integerId,
      value_amount: cents,
      recipient_email: z.string(),
      recipient_name: z.nullable(z.string()),
      state: z
        .enum(['delivered', 'pending', 'refunded'])
        .check(
          z.describe(
            "`delivered`: on the recipient's gift card. `pending`: the email has no account yet; the value waits for one (pending_until), then goes back to the buyer's card (`refunded`).",
          ),
        ),
      pending_until: z.nullable(timestamp).check(z.describe('While pending: when the value goes back to the buyer unclaimed')),
      created_at: timestamp,
    }),
  }),
);

export const giftCardValueOrderResponse = resource(
  'GiftCardValueOrder',
  'gift_card_value_order',
  {
    added_value_amount: cents.check(z.describe("Value added to the recipient's gift card at the merchant (or held for their email until they sign up)")),
    merchant_id: integerId,
    recipient_email: z.string(),
    uuid: z.string(),
  },
  "The same answer whether or not the recipient's email has an account: without one, the value is held for that email and credited to the account later created with it (the buyer follows it in GET /v15/users/gift_card_value_orders); unclaimed after 60 days it is refunded to the buyer's card.",
);

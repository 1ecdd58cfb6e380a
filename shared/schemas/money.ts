import * as z from 'zod';
import { cents, integerId, timestamp, uuid } from './common.ts';
import { named } from './registry.ts';

export const giftCardValueAdditionResponse = named(
  'GiftCardValueAddition',
  z.object({
    gift_card_value_addition: z.object({
      added_value_amount: cents.describe('Value loaded'),
      new_value_at_merchant_amount: cents.describe('New total value at that merchant'),
      old_value_at_merchant_amount: cents.describe('Previous total at that merchant'),
      uuid: uuid.describe('Id of the addition'),
    }),
  }),
);

export const proposedOrderResponse = named(
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
);

export const completedOrderResponse = named(
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
);

export const merchantOrderResponse = named(
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
);

const userOrderColumns = {
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
};

export const userOrderSummary = named('UserOrderSummary', z.object(userOrderColumns), 'A user-oriented order as listed.');

export const userOrderItem = named(
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
);

export const userOrderDetailResponse = named(
  'UserOrder',
  z.object({
    order: z.object({
      id: integerId,
      ...userOrderColumns,
      location_latitude: z.number().nullable(),
      location_longitude: z.number().nullable(),
      location_name: z.string(),
      tax_amount: cents.nullable().describe('null when 0'),
      items: z.array(z.object({ item: userOrderItem })),
    }),
  }),
  'A user-oriented order with its details.',
);

export const userOrderList = z.array(z.object({ order: userOrderSummary }));

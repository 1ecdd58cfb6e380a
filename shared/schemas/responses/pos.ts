/** What the POS surface beyond the contract answers (docs/pos.md): merchant views of orders and locations, contribution targets, checks. */
import * as z from '#shared/schemas/zod.ts';
import { absoluteUrl, cents, integerId, orderIntegerId, timestamp, uuid } from './common.ts';
import { location, orderAheadMenuUrl, placeAndMerchant, tipPreference } from './locations.ts';
import { completedOrderResponse, userOrderItem } from './money.ts';
import { named, namedItemList, resource } from './registry.ts';

// ---------------------------------------------------------------------------------------------
// Merchant-facing orders (P11, P12)

export const merchantOrderV14Fields = {
  created_at: timestamp,
  merchant_funded_credit_amount: cents,
  earn_amount: cents.check(z.describe('Credit the order earned')),
  uuid,
  loyalty_id: integerId.check(z.describe("The user's id at that merchant")),
  spend_amount: cents,
  refunded_at: z.nullable(timestamp),
  tip_amount: cents,
  total_amount: cents,
  location_id: integerId,
  user_display_name: z.string().check(z.describe('First name and last initial')),
};

export const merchantOrderV14Response = named(
  'MerchantOrderV14',
  z.object({ order: z.object({ ...merchantOrderV14Fields, transacted_at: timestamp }) }),
  'The merchant-facing order (v14).',
);

/** The v15 merchant-facing order's fields (also the management API's order detail: ./orders-management.ts). */
export const merchantOrderV15Fields = {
  ...merchantOrderV14Fields,
  transacted_at: timestamp,
  id: orderIntegerId,
  cashier: z.nullable(z.string()),
  identifier_from_merchant: z.nullable(z.string()),
  register: z.nullable(z.string()),
  merchant_id: integerId,
  merchant_name: z.string(),
  balance_amount: cents.check(z.describe('Charged to the card')),
  credit_applied_amount: cents,
  credit_earned_amount: cents,
  exemption_amount: cents,
  tax_amount: cents,
  requested_spend_amount: cents,
  requested_tip_amount: cents,
  requested_total_amount: cents,
  items: z.array(z.object({ item: userOrderItem })),
};

export const merchantOrderV15Response = resource(
  'MerchantOrder',
  'order',
  merchantOrderV15Fields,
  'The merchant-facing order with the POS fields and items (v15).',
);

export const locationOrderList = namedItemList(
  'LocationOrder',
  'order',
  {
    ...merchantOrderV14Fields,
    refund_source: z.nullable(z.enum(['merchant'])).check(z.describe('Who refunded the order; null while not refunded')),
  },
  "An order as a location's order list shows it.",
);

// ---------------------------------------------------------------------------------------------
// Locations (P13, P14, P15)

export const managedLocationList = namedItemList(
  'ManagedLocation',
  'location',
  {
    address: z.string().check(z.describe('One line: street, locality, region')),
    id: integerId,
    merchant_id: integerId,
    merchant_name: z.string(),
    name: z.string(),
    pos_location_identifier: z.nullable(z.string()),
    tip_preference: tipPreference,
  },
  'A location the merchant token may place orders for.',
);

export const locationDetailsV15 = named(
  'LocationDetails',
  z.extend(location, {
    name: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    foodler_url: z.nullable(absoluteUrl),
    delivery_menu_url: orderAheadMenuUrl.check(
      z.describe('Absolute URL of the order ahead menu to order delivery from; null unless the location delivers and has a menu'),
    ),
    visible: z.boolean().check(z.describe('Same as shown (older clients read this name)')),
  }),
  'A location with the fields POS and app SDKs read besides the contract Location (v15).',
);

export const locationDetailsV15Response = z.object({ location: locationDetailsV15 });
export const locationDetailsV15List = z.array(z.object({ location: locationDetailsV15 }));

export const locationDetailsV14Response = z.object({
  location: named(
    'LocationDetailsV14',
    z.object({
      categories: z.array(z.number().check(z.int())),
      delivery_menu_url: orderAheadMenuUrl,
      description_html: z.string(),
      extended_address: z.string(),
      facebook_url: z.nullable(absoluteUrl),
      foodler_url: z.nullable(absoluteUrl),
      hours: z.string(),
      id: integerId,
      ...placeAndMerchant,
      name: z.nullable(z.string()),
      newsletter_url: z.nullable(absoluteUrl),
      opentable_url: z.nullable(absoluteUrl),
      phone: z.nullable(z.string()),
      pickup_menu_url: orderAheadMenuUrl,
      postal_code: z.string(),
      region: z.string(),
      shown: z.boolean(),
      street_address: z.string(),
      twitter_url: z.nullable(absoluteUrl),
      updated_at: timestamp,
      visible: z.boolean().check(z.describe('Same as shown (older clients read this name)')),
      yelp_url: z.nullable(absoluteUrl),
    }),
    'A location as v14 clients (iOS, Android) read it.',
  ),
});

export const merchantLocationSummaryV14List = namedItemList(
  'MerchantLocationV14',
  'location',
  { id: integerId, merchant_tip_preference: tipPreference, name: z.nullable(z.string()) },
  "A merchant's location as v14 lists it.",
);

// ---------------------------------------------------------------------------------------------
// Contribution targets (P20, P21)

const contributionTarget = named(
  'ContributionTarget',
  z.object({
    description_html: z.string(),
    employer_required: z.boolean(),
    facebook_url: z.nullable(z.string()),
    featured: z.boolean(),
    home_address_required: z.boolean(),
    id: z.string().check(z.describe('The target id, as text (as LevelUp sent it)')),
    minimum_age_required: z.nullable(z.number().check(z.int())),
    name: z.string(),
    partner_specific_terms: z.nullable(z.string()),
    twitter_username: z.nullable(z.string()),
    website: z.nullable(z.string()),
  }),
  'A charity a user may give to.',
);

export const contributionTargetResponse = z.object({ contribution_target: contributionTarget });
export const contributionTargetList = z.array(z.object({ contribution_target: contributionTarget }));

export const publishedCheckResponse = resource(
  'PublishedCheck',
  'check',
  {
    locator: z.string().check(z.describe('Six characters staff can read out; not a credential')),
    uuid: z.string().check(z.describe('32 hex characters')),
    qr_code_character_art: z
      .string()
      .check(z.describe('The check QR code for a text screen: rows joined by `,`, two modules per character (U+00A0, U+2580, U+2584, U+2588)')),
  },
  'A published remote check.',
);

export const checkResponse = resource(
  'Check',
  'check',
  {
    uuid: z.string(),
    locator: z.string(),
    state: z.enum(['open', 'claimed', 'completed']),
    location_id: integerId,
    merchant_name: z.string(),
    spend_amount: cents,
    tax_amount: cents,
    exemption_amount: cents,
    items: z.array(z.object({ item: userOrderItem })),
    pending_order: z
      .optional(
        z.object({
          uuid: z.string(),
          discount_amount: z.nullable(cents).check(z.describe('Merchant-funded credit the POS may apply; null once the check is paid')),
          tip_amount: cents,
        }),
      )
      .check(z.describe('Present once a customer has claimed the check; the key is left out before (the C# SDK fails on null)')),
    completed_order_uuid: z.nullable(z.string()),
  },
  'A remote check as the POS polls it and as the customer who claimed it sees it.',
);

/** The finalisation answers the completed order (as POST /v15/completed_orders); a claim answers the check. */
export const checkOrderResponse = z.union([completedOrderResponse, checkResponse]);

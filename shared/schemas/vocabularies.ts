/**
 * Values the schemas and the domain share (event types, fulfillment types, card fields, limits),
 * kept free of zod: a domain module that needs one imports this, not the schema module, whose
 * import would build every zod schema in it at cold start (a Lambda bundle evaluates every module
 * it imports; docs/benchmarks.md, "Cold start"). The schema modules re-export them.
 */

/** Every event type (docs/events.md, "Catalogue"); the domain's catalogue says who receives each. */
export const EVENT_TYPES = [
  'order.completed',
  'order.refunded',
  'gift_card.value_added',
  'gift_card.value_removed',
  'order_ahead.validated',
  'order_ahead.invalidated',
  'order_ahead.completed',
  'reward.earned',
  'claim.created',
  'campaign.unlocked',
  'credit_card.created',
  'credit_card.deactivated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const FULFILLMENT_TYPES = ['delivery', 'in_store', 'pickup'] as const;
export type FulfillmentType = (typeof FULFILLMENT_TYPES)[number];

/**
 * A merchant's tip preference, the values LevelUp's clients know (`merchant_tip_preference` of a location,
 * `tip_preference` of a managed location): whether the POS and app should ask for a tip.
 */
export const TIP_PREFERENCES = ['unwanted', 'expected', 'no preference'] as const;
export type TipPreference = (typeof TIP_PREFERENCES)[number];
/** LevelUp's default, what a merchant that chose nothing answers (the SDK fixtures' merchants show it). */
export const DEFAULT_TIP_PREFERENCE: TipPreference = 'no preference';

/** A stored preference as answered: anything else (merchants stored before the setting existed said `percent`) is the default. */
export function tipPreferenceOf(stored: unknown): TipPreference {
  return (TIP_PREFERENCES as readonly unknown[]).includes(stored) ? (stored as TipPreference) : DEFAULT_TIP_PREFERENCE;
}

/**
 * The contract names the nonce `gateway_payment_nonce`; clients built for the Braintree-backed API send
 * it branded, `braintree_payment_nonce`. Either is taken (the first non-blank one, in this order).
 */
export const NONCE_FIELDS = ['gateway_payment_nonce', 'braintree_payment_nonce'] as const;
export const ENCRYPTED_FIELDS = ['encrypted_number', 'encrypted_cvv', 'encrypted_expiration_month', 'encrypted_expiration_year'] as const;

/** Longest scanned QR string (`payment_token_data`) a request may carry. */
export const PAYMENT_TOKEN_DATA_MAX = 255;

/** Custom attributes one app may keep on a user. */
export const MAX_CUSTOM_ATTRIBUTES = 50;

/** Most of one item an order-ahead cart line may ask for. */
export const MAX_LINE_QUANTITY = 99;

/**
 * Location categories (GET /v14/categories). A fixed vocabulary shipped with the code rather than rows in
 * the table: every environment has the same ids (locations created anywhere name the same categories),
 * the list costs no read, and a location can only be created with ids from it (shared/schemas/location-settings.ts checks).
 * Ids are never reused or renumbered: apps store them with their location summaries (A28).
 */
export interface Category {
  id: number;
  name: string;
}

export const CATEGORIES: readonly Category[] = [
  { id: 1, name: 'Restaurants' },
  { id: 2, name: 'Bars & Nightlife' },
  { id: 3, name: 'Bakeries' },
  { id: 4, name: 'Coffee & Tea' },
  { id: 5, name: 'Breakfast & Brunch' },
  { id: 6, name: 'Desserts' },
  { id: 7, name: 'Pizza' },
  { id: 8, name: 'Sandwiches' },
  { id: 9, name: 'Salads' },
  { id: 10, name: 'Burgers' },
  { id: 11, name: 'Mexican' },
  { id: 12, name: 'Asian' },
  { id: 13, name: 'Juice & Smoothies' },
  { id: 14, name: 'Grocery' },
  { id: 15, name: 'Retail' },
  { id: 16, name: 'Services' },
];

const CATEGORY_IDS = new Set(CATEGORIES.map((category) => category.id));

/** Whether an id is one of CATEGORIES (what a location may name). */
export function isKnownCategory(id: number): boolean {
  return CATEGORY_IDS.has(id);
}

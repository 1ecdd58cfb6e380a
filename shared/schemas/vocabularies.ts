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

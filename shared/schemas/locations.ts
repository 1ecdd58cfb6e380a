import * as z from 'zod';
import { absoluteUrl, integerId, timestamp } from './common.ts';
import { named, schema } from './registry.ts';

/** How a location hands orders over. */
import { FULFILLMENT_TYPES, TIP_PREFERENCES, type FulfillmentType } from './vocabularies.ts';

export { FULFILLMENT_TYPES, type FulfillmentType } from './vocabularies.ts';

/** `fulfillment_types` in a query string: comma-separated, any case; empty is not given. */
export const fulfillmentTypesList = /* @__PURE__ */ schema(() => z
  .string()
  .transform((value) => value.split(',').map((type) => type.trim().toLowerCase()).filter((type) => type !== ''))
  .refine((types) => types.every((type) => (FULFILLMENT_TYPES as readonly string[]).includes(type)), 'must be a comma-separated list of delivery, in_store, pickup')
  .transform((types) => (types.length > 0 ? [...new Set(types)] : undefined) as FulfillmentType[] | undefined));

/** A merchant's tip preference, as LevelUp's clients know it. */
export const tipPreference = /* @__PURE__ */ schema(() => z.enum(TIP_PREFERENCES).describe("The merchant's tip preference (LevelUp's default: `no preference`)"));

/** The order-ahead menu of a way of ordering: absolute, or null. */
export const orderAheadMenuUrl = /* @__PURE__ */ schema(() => absoluteUrl.nullable());

export const location = /* @__PURE__ */ schema(() => named(
  'Location',
  z.object({
    accepts_tips_in_store: z.boolean(),
    accepts_tips_on_delivery: z.boolean(),
    accepts_tips_on_pickup: z.boolean(),
    categories: z.array(z.number().int()),
    extended_address: z.string(),
    facebook_url: absoluteUrl.nullable(),
    fulfillment_types: z.array(z.enum(FULFILLMENT_TYPES)),
    hours: z.string().describe('Opening hours for people, one line per period (e.g. `Mon-Fri 7am - 7pm`)'),
    id: integerId,
    image_url: absoluteUrl.nullable().describe('Set when image[width], image[height] and image[density] are all given'),
    latitude: z.number(),
    locality: z.string(),
    longitude: z.number(),
    menu_url: absoluteUrl.nullable(),
    merchant_description_html: z.string(),
    merchant_id: integerId,
    merchant_name: z.string(),
    merchant_tip_preference: tipPreference,
    newsletter_url: absoluteUrl.nullable(),
    open_state: z.enum(['open', 'closed', 'unknown']),
    open_state_display: z.string(),
    opentable_url: absoluteUrl.nullable(),
    partner_ids: z.record(z.string(), z.object({ location_id: z.string(), merchant_id: z.string() })),
    pickup_menu_url: orderAheadMenuUrl.describe('Absolute URL of the order ahead menu to order pickup from; null unless the location offers pickup and has a menu'),
    postal_code: z.string(),
    ready_time_estimate_in_minutes: z.number().int(),
    region: z.string(),
    shown: z.boolean(),
    street_address: z.string(),
    supports_scheduling: z.boolean(),
    time_zone: z.string().describe('IANA time zone name'),
    twitter_url: absoluteUrl.nullable(),
    updated_at: timestamp,
    yelp_url: absoluteUrl.nullable(),
  }),
));

export const locationList = /* @__PURE__ */ schema(() => z.array(z.object({ location })));

/**
 * The location that delivers to a user's address (GET /v15/user_addresses/:id/delivery_location): the
 * Location with what the iOS SDK's location factory reads besides (`name`, `phone`, `visible` as a
 * synonym of `shown`) and the menus to order from there.
 */
export const deliveryLocationResponse = /* @__PURE__ */ schema(() => named(
  'DeliveryLocation',
  z.object({
    location: location.extend({
      name: z.string().nullable(),
      phone: z.string().nullable(),
      visible: z.boolean().describe('Same as shown (older clients read this name)'),
      delivery_menu_url: absoluteUrl.describe('Absolute URL of the order ahead menu to order delivery from'),
      pickup_menu_url: orderAheadMenuUrl.describe('The same menu when the location also offers pickup, else null'),
    }),
  }),
));

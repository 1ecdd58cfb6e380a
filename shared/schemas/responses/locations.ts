/** Locations as the contract's location operations answer them (the query vocabularies: shared/schemas/locations.ts). */
import * as z from '#shared/schemas/zod.ts';
import { FULFILLMENT_TYPES, TIP_PREFERENCES } from '#shared/schemas/vocabularies.ts';
import { absoluteUrl, integerId, timestamp } from './common.ts';
import { named } from './registry.ts';

/** A merchant's tip preference, as LevelUp's clients know it. */
export const tipPreference = z.enum(TIP_PREFERENCES).check(z.describe("The merchant's tip preference (LevelUp's default: `no preference`)"));

/** The order-ahead menu of a way of ordering: absolute, or null. */
export const orderAheadMenuUrl = z.nullable(absoluteUrl);

/** Where a location is and whose it is: fields the v15 Location and the v14 LocationDetailsV14 declare alike. */
export const placeAndMerchant = {
  latitude: z.number(),
  locality: z.string(),
  longitude: z.number(),
  menu_url: z.nullable(absoluteUrl),
  merchant_description_html: z.string(),
  merchant_id: integerId,
  merchant_name: z.string(),
  merchant_tip_preference: tipPreference,
};

export const location = named(
  'Location',
  z.object({
    accepts_tips_in_store: z.boolean(),
    accepts_tips_on_delivery: z.boolean(),
    accepts_tips_on_pickup: z.boolean(),
    categories: z.array(z.number().check(z.int())),
    extended_address: z.string(),
    facebook_url: z.nullable(absoluteUrl),
    fulfillment_types: z.array(z.enum(FULFILLMENT_TYPES)),
    hours: z.string().check(z.describe('Opening hours for people, one line per period (e.g. `Mon-Fri 7am - 7pm`)')),
    id: integerId,
    image_url: z.nullable(absoluteUrl).check(z.describe('Set when image[width], image[height] and image[density] are all given')),
    ...placeAndMerchant,
    newsletter_url: z.nullable(absoluteUrl),
    open_state: z.enum(['open', 'closed', 'unknown']),
    open_state_display: z.string(),
    opentable_url: z.nullable(absoluteUrl),
    partner_ids: z.record(z.string(), z.object({ location_id: z.string(), merchant_id: z.string() })),
    pickup_menu_url: orderAheadMenuUrl.check(
      z.describe('Absolute URL of the order ahead menu to order pickup from; null unless the location offers pickup and has a menu'),
    ),
    postal_code: z.string(),
    ready_time_estimate_in_minutes: z.number().check(z.int()),
    region: z.string(),
    shown: z.boolean(),
    street_address: z.string(),
    supports_scheduling: z.boolean(),
    time_zone: z.string().check(z.describe('IANA time zone name')),
    twitter_url: z.nullable(absoluteUrl),
    updated_at: timestamp,
    yelp_url: z.nullable(absoluteUrl),
  }),
);

export const locationList = z.array(z.object({ location }));

/**
 * The location that delivers to a user's address (GET /v15/user_addresses/:id/delivery_location): the
 * Location with what the iOS SDK's location factory reads besides (`name`, `phone`, `visible` as a
 * synonym of `shown`) and the menus to order from there.
 */
export const deliveryLocationResponse = named(
  'DeliveryLocation',
  z.object({
    location: z.extend(location, {
      name: z.nullable(z.string()),
      phone: z.nullable(z.string()),
      visible: z.boolean().check(z.describe('Same as shown (older clients read this name)')),
      delivery_menu_url: absoluteUrl.check(z.describe('Absolute URL of the order ahead menu to order delivery from')),
      pickup_menu_url: orderAheadMenuUrl.check(z.describe('The same menu when the location also offers pickup, else null')),
    }),
  }),
);

/** A location as its merchant sees and sets it (the management routes; the requests: shared/schemas/location-settings.ts). */
import * as z from '#shared/schemas/zod.ts';
import { FULFILLMENT_TYPES } from '#shared/schemas/vocabularies.ts';
import { WEEK_FROM_MONDAY } from '#shared/schemas/location-settings.ts';
import type { Weekday } from '#shared/time.ts';
import { absoluteUrl, integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const openingPeriod = z.object({
  days: z.array(z.enum(WEEK_FROM_MONDAY as [Weekday, ...Weekday[]])),
  opens: z.string().check(z.describe('HH:MM in the location time zone')),
  closes: z.string().check(z.describe('HH:MM; at or before `opens` runs past midnight; 24:00 is midnight')),
});

export const locationSettingsResponse = resource('LocationSettings', 'location', {
  id: integerId,
  merchant_id: integerId,
  name: z.nullable(z.string()).check(z.describe('Internal label (orders show it as location_name)')),
  street_address: z.string(),
  extended_address: z.string(),
  locality: z.string(),
  region: z.string(),
  postal_code: z.string(),
  phone: z.nullable(z.string()),
  latitude: z.number(),
  longitude: z.number(),
  time_zone: z.string().check(z.describe('IANA time zone name; opening hours are read in it')),
  categories: z.array(integerId),
  fulfillment_types: z.array(z.enum(FULFILLMENT_TYPES)),
  delivery_radius_m: z.nullable(z.number()).check(z.describe('The delivery area: a circle of this radius in meters; null when it does not deliver')),
  hours: z.array(openingPeriod),
  accepts_tips_in_store: z.boolean(),
  accepts_tips_on_delivery: z.boolean(),
  accepts_tips_on_pickup: z.boolean(),
  facebook_url: z.nullable(absoluteUrl),
  menu_url: z.nullable(absoluteUrl),
  newsletter_url: z.nullable(absoluteUrl),
  opentable_url: z.nullable(absoluteUrl),
  twitter_url: z.nullable(absoluteUrl),
  yelp_url: z.nullable(absoluteUrl),
  ready_time_estimate_in_minutes: z.number().check(z.int()),
  shown: z.boolean().check(z.describe('false: hidden from app lists (POS routes still serve it)')),
  supports_scheduling: z.boolean(),
  partner_ids: z.record(z.string(), z.object({ location_id: z.string(), merchant_id: z.string() })),
  pos_location_identifier: z.nullable(z.string()),
  order_ahead_menu_id: z.nullable(integerId).check(z.describe('The published order-ahead menu; null without one')),
  version: z.number().check(z.int(), z.describe('Raised by every change')),
  created_at: timestamp,
  updated_at: timestamp,
});

export const locationSettingsList = z.array(locationSettingsResponse);

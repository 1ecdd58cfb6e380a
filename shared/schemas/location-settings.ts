/**
 * A location as its merchant sets it (docs/merchant-api.md, "Locations"): ONE set of rules for the operators' CLI
 * (`createLocation`, shared/domain/merchants/locations.ts) and the management routes (create, and the partial update
 * of what the issue names: hours, fulfillment types, delivery area, tips, ready-time estimate, shown). Every text,
 * number and list is bounded here. Built on first use (`locationSettingsSchemas()`): the API functions that only read
 * locations import the domain module that imports this one, and do not build these at cold start.
 */
import * as z from '#shared/schemas/zod.ts';
import { isValidTimeZone, WEEKDAYS, type Weekday } from '#shared/time.ts';
import { FULFILLMENT_TYPES, isKnownCategory, type FulfillmentType } from './vocabularies.ts';
import { pathId } from './params.ts';

/** The week as people read opening hours: Monday first (`Mon - Fri`, `Sat, Sun`). */
export const WEEK_FROM_MONDAY: readonly Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** `HH:MM`, and `24:00` for a period that runs to midnight. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export const MAX_LOCATION_NAME_LENGTH = 100;
export const MAX_ADDRESS_LINE_LENGTH = 200;
export const MAX_PLACE_NAME_LENGTH = 100;
export const MAX_POSTAL_CODE_LENGTH = 20;
export const MAX_PHONE_LENGTH = 40;
export const MAX_TIME_ZONE_LENGTH = 64;
export const MAX_URL_LENGTH = 2000;
export const MAX_CATEGORIES = 20;
/** A week of opening periods: four a day covers split shifts and late nights. */
export const MAX_OPENING_PERIODS = 28;
/** The delivery area's largest radius: 100 km. */
export const MAX_DELIVERY_RADIUS_M = 100_000;
/** The longest ready-time estimate: a day. */
export const MAX_READY_TIME_MINUTES = 24 * 60;
export const MAX_PARTNERS = 20;
export const MAX_PARTNER_ID_LENGTH = 100;
export const MAX_POS_LOCATION_IDENTIFIER_LENGTH = 64;

/** What the update may change, as the issue names them; a manager may change only MANAGER_SETTABLE_FIELDS. */
export const LOCATION_SETTABLE_FIELDS = [
  'hours',
  'fulfillment_types',
  'delivery_radius_m',
  'accepts_tips_in_store',
  'accepts_tips_on_delivery',
  'accepts_tips_on_pickup',
  'ready_time_estimate_in_minutes',
  'shown',
] as const;
export type LocationSettableField = (typeof LOCATION_SETTABLE_FIELDS)[number];
export const MANAGER_SETTABLE_FIELDS: readonly LocationSettableField[] = ['hours', 'shown'];

/** `/v15/merchants/{merchant_id}/locations` and `/v15/merchants/{merchant_id}/all_locations` */
export const merchantLocationsParams = z.object({ merchant_id: pathId });
/** `/v15/merchants/{merchant_id}/locations/{location_id}` */
export const merchantLocationParams = z.object({ merchant_id: pathId, location_id: pathId });

/**
 * The delivery area's rule: a location that delivers has a radius, one that does not has none. Creation checks it
 * on the input, an update on the location the change would leave (the domain), so a radius is never orphaned.
 */
export function deliveryAreaProblem(location: { fulfillment_types: readonly FulfillmentType[]; delivery_radius_m: number | null }): string | undefined {
  const delivers = location.fulfillment_types.includes('delivery');
  if (delivers && location.delivery_radius_m === null) return 'is required when the location delivers';
  if (!delivers && location.delivery_radius_m !== null) return 'only applies to a location that delivers (send null with the change)';
  return undefined;
}

const deliveryAreaRule = z.superRefine((input: { fulfillment_types: FulfillmentType[]; delivery_radius_m: number | null }, context) => {
  const problem = deliveryAreaProblem(input);
  if (problem) context.addIssue({ code: 'custom', path: ['delivery_radius_m'], message: problem });
});

/** A body naming a field the request does not take is refused field by field, never silently dropped. */
function onlyFields(names: readonly string[]) {
  const known = new Set(names);
  return z.superRefine((input: object, context) => {
    // At most 20 named: a body of thousands of made-up fields answers a bounded error.
    const unknown = Object.keys(input).filter((name) => !known.has(name));
    for (const name of unknown.slice(0, 20)) {
      context.addIssue({ code: 'custom', path: [name], message: 'is not a field this request can set (docs/merchant-api.md, "Locations")' });
    }
  });
}

const text = (max: number) => z.string().check(z.maxLength(max, { error: `is too long (maximum is ${max} characters)` }));
const requiredText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, { error: "can't be blank" }), z.maxLength(max, { error: `is too long (maximum is ${max} characters)` }));

function buildSchemas() {
  const openingPeriod = z.object({
    days: z.array(z.enum(WEEK_FROM_MONDAY as [Weekday, ...Weekday[]])).check(z.minLength(1), z.maxLength(7)),
    opens: z.string().check(z.regex(CLOCK_TIME, 'must be HH:MM')),
    closes: z.string().check(z.regex(CLOCK_TIME, 'must be HH:MM (24:00 for midnight)')),
  });
  // Clients follow these links as given: absolute http(s) only (a `javascript:` or relative link would be followed too).
  const url = z.nullable(z.string().check(z.maxLength(MAX_URL_LENGTH), z.regex(/^https?:\/\/[^\s]+$/, 'must be an absolute http(s) URL')));

  /** The fields an update may change, each as creation checks it. */
  const settable = {
    hours: z.array(openingPeriod).check(z.maxLength(MAX_OPENING_PERIODS)),
    fulfillment_types: z.array(z.enum(FULFILLMENT_TYPES)).check(z.minLength(1), z.maxLength(FULFILLMENT_TYPES.length)),
    delivery_radius_m: z.nullable(z.number().check(z.positive(), z.lte(MAX_DELIVERY_RADIUS_M))),
    accepts_tips_in_store: z.boolean(),
    accepts_tips_on_delivery: z.boolean(),
    accepts_tips_on_pickup: z.boolean(),
    ready_time_estimate_in_minutes: z.number().check(z.int(), z.gte(0), z.lte(MAX_READY_TIME_MINUTES)),
    shown: z.boolean(),
  } satisfies Record<LocationSettableField, z.ZodMiniType>;

  /** Every field of a new location, with the default it gets when absent. */
  const fields = {
    name: z._default(z.nullable(text(MAX_LOCATION_NAME_LENGTH)), null),
    street_address: requiredText(MAX_ADDRESS_LINE_LENGTH),
    extended_address: z._default(text(MAX_ADDRESS_LINE_LENGTH), ''),
    locality: requiredText(MAX_PLACE_NAME_LENGTH),
    region: requiredText(MAX_PLACE_NAME_LENGTH),
    postal_code: requiredText(MAX_POSTAL_CODE_LENGTH),
    phone: z._default(z.nullable(text(MAX_PHONE_LENGTH)), null),
    latitude: z.number().check(z.gte(-90), z.lte(90)),
    longitude: z.number().check(z.gte(-180), z.lte(180)),
    time_zone: z.string().check(z.maxLength(MAX_TIME_ZONE_LENGTH), z.refine(isValidTimeZone, 'must be an IANA time zone name such as America/New_York')),
    categories: z._default(
      z.array(z.number().check(z.int(), z.refine(isKnownCategory, 'is not a category of GET /v14/categories'))).check(z.maxLength(MAX_CATEGORIES)),
      [],
    ),
    fulfillment_types: z._default(settable.fulfillment_types, ['in_store']),
    delivery_radius_m: z._default(settable.delivery_radius_m, null),
    hours: z._default(settable.hours, []),
    accepts_tips_in_store: z._default(settable.accepts_tips_in_store, true),
    accepts_tips_on_delivery: z._default(settable.accepts_tips_on_delivery, true),
    accepts_tips_on_pickup: z._default(settable.accepts_tips_on_pickup, true),
    facebook_url: z._default(url, null),
    menu_url: z._default(url, null),
    newsletter_url: z._default(url, null),
    opentable_url: z._default(url, null),
    twitter_url: z._default(url, null),
    yelp_url: z._default(url, null),
    ready_time_estimate_in_minutes: z._default(settable.ready_time_estimate_in_minutes, 15),
    shown: z._default(settable.shown, true),
    supports_scheduling: z._default(z.boolean(), false),
    partner_ids: z._default(
      z
        .record(text(MAX_PARTNER_ID_LENGTH), z.object({ location_id: text(MAX_PARTNER_ID_LENGTH), merchant_id: text(MAX_PARTNER_ID_LENGTH) }))
        .check(z.refine((partners) => Object.keys(partners).length <= MAX_PARTNERS, `must name at most ${MAX_PARTNERS} partners`)),
      {},
    ),
    pos_location_identifier: z._default(z.nullable(z.string().check(z.minLength(1), z.maxLength(MAX_POS_LOCATION_IDENTIFIER_LENGTH))), null),
  };

  const newLocationFields = z.looseObject(fields).check(onlyFields(Object.keys(fields)), deliveryAreaRule);
  const operatorFields = { merchant_id: z.number().check(z.int(), z.positive()), ...fields };
  const change = {
    hours: z.optional(settable.hours),
    fulfillment_types: z.optional(settable.fulfillment_types),
    delivery_radius_m: z.optional(settable.delivery_radius_m),
    accepts_tips_in_store: z.optional(settable.accepts_tips_in_store),
    accepts_tips_on_delivery: z.optional(settable.accepts_tips_on_delivery),
    accepts_tips_on_pickup: z.optional(settable.accepts_tips_on_pickup),
    ready_time_estimate_in_minutes: z.optional(settable.ready_time_estimate_in_minutes),
    shown: z.optional(settable.shown),
  };
  return {
    /** What `createLocation` takes: a new location's fields and its merchant (the CLI names it; a route takes it from the path). */
    locationInput: z.looseObject(operatorFields).check(onlyFields(Object.keys(operatorFields)), deliveryAreaRule),
    /** POST /v15/merchants/{merchant_id}/locations */
    locationCreateBody: z.object({ location: newLocationFields }),
    /** PUT /v15/merchants/{merchant_id}/locations/{location_id}: any of LOCATION_SETTABLE_FIELDS. */
    locationUpdateBody: z.object({ location: z.looseObject(change).check(onlyFields(LOCATION_SETTABLE_FIELDS)) }),
  };
}

let built: ReturnType<typeof buildSchemas> | undefined;
/** The location schemas, built once, on first use. */
export const locationSettingsSchemas = () => (built ??= buildSchemas());

type Schemas = ReturnType<typeof buildSchemas>;
export type LocationInput = z.input<Schemas['locationInput']>;
export type NewLocationFields = z.output<Schemas['locationCreateBody']>['location'];
export type LocationSettingsChange = z.output<Schemas['locationUpdateBody']>['location'];

import { pageInKeyOrder, queryAll, type KeyOrderPosition } from '#shared/db/reads.ts';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { and, equals, versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { CLOCK_TIME, locationSettingsSchemas, WEEK_FROM_MONDAY, type LocationInput } from '#shared/schemas/location-settings.ts';
import { tipPreferenceOf, type FulfillmentType, type TipPreference } from '#shared/schemas/vocabularies.ts';
import { isoSeconds, localTime, MINUTES_PER_DAY, parseClock, type Weekday } from '#shared/time.ts';
import type { App } from '#shared/domain/identity/apps.ts';
import { getMerchant, storeMerchantTipPreference, type MerchantItem } from '#shared/domain/merchants/merchants.ts';
import { menuUrl } from '#shared/domain/merchants/menu-links.ts';

export type { LocationInput } from '#shared/schemas/location-settings.ts';

/**
 * Merchant locations: what an app lists (GET /v15/apps/:app_id/locations), with fulfillment
 * filters, distance ordering, delivery areas and opening hours. docs/data-model.md lists the keys.
 */

/** Locations per page of an app's list. The contract leaves it open; small enough for a phone's first screen. */
export const LOCATIONS_PAGE_SIZE = 10;

/**
 * One opening period, in the location's own time zone. `closes` at or before `opens` runs past
 * midnight into the next day (`17:00`-`02:00`); `00:00`-`24:00` is open all day.
 */
export interface OpeningPeriod {
  days: Weekday[];
  opens: string;
  closes: string;
}

export interface PartnerIds {
  location_id: string;
  merchant_id: string;
}

/** A location's attributes (what the reads here answer: a stored Location item without its keys, withoutKeys). */
export interface LocationItem {
  location_id: number;
  merchant_id: number;
  /**
   * Copied from the merchant when the location is made, so a page of locations is one index query.
   * Whatever changes these on a merchant must rewrite its locations too (listMerchantLocations).
   */
  merchant_name: string;
  merchant_description_html: string;
  merchant_tip_preference: TipPreference;
  /** Internal label (orders show it as location_name); not a field of the listed Location. */
  name: string | null;
  street_address: string;
  extended_address: string;
  locality: string;
  region: string;
  postal_code: string;
  /** The location's phone number as people dial it (order-ahead apps show it on a completed order); null when unknown. */
  phone?: string | null;
  latitude: number;
  longitude: number;
  /** IANA name; opening hours are read in it. */
  time_zone: string;
  categories: number[];
  fulfillment_types: FulfillmentType[];
  /** Delivery area: a circle of this radius in meters around the location; null when it does not deliver. */
  delivery_radius_m: number | null;
  hours: OpeningPeriod[];
  accepts_tips_in_store: boolean;
  accepts_tips_on_delivery: boolean;
  accepts_tips_on_pickup: boolean;
  facebook_url: string | null;
  menu_url: string | null;
  newsletter_url: string | null;
  opentable_url: string | null;
  twitter_url: string | null;
  yelp_url: string | null;
  /**
   * The location's order-ahead menu (set when one is published, putMenu): what `pickup_menu_url` and
   * `delivery_menu_url` link. Null without a menu; absent on locations written before menus were linked
   * (read as none until the menu is published again, docs/locations.md).
   */
  order_ahead_menu_id?: number | null;
  ready_time_estimate_in_minutes: number;
  /** Hidden locations (false) are left out of app lists. */
  shown: boolean;
  /**
   * Raised by every change (`changeItems`), whose write is conditional on the version it read: two changes that read
   * the same version never both commit. Absent on locations written before it existed (read as 0).
   */
  version?: number;
  supports_scheduling: boolean;
  partner_ids: Record<string, PartnerIds>;
  /** The merchant's own id of the location in its POS (GET /v15/managed_locations); null when not set. */
  pos_location_identifier?: string | null;
  created_at: string;
  updated_at: string;
}

/** What a summary row shows: the fields a location's change-feed item copies (createLocation writes it). */
export const LOCATION_SUMMARY_FIELDS = [
  'location_id',
  'shown',
  'updated_at',
  'categories',
  'latitude',
  'longitude',
  'merchant_id',
  'merchant_name',
  'name',
] as const;
export type LocationSummary = Pick<LocationItem, (typeof LOCATION_SUMMARY_FIELDS)[number]>;

/** The index keys a location is listed by: its merchant's locations (gsi1) and every location (gsi2). */
type LocationIndexKeys = ReturnType<typeof keys.merchantLocationsIndex> & ReturnType<typeof keys.allLocationsIndex>;

export const Location = defineEntity<LocationItem & LocationIndexKeys>()({ entity: 'Location', key: keys.location });
type StoredLocation = EntityItem<typeof Location>;

/** A location's row in the change feed (docs/data-model.md "Location summaries by change"), keyed by (updated_at, id). */
export const LocationChangeRow = defineEntity<LocationSummary>()({ entity: 'LocationChange', key: keys.locationChange });

/** The change-feed row of a location as it is now. */
const locationChangeRow = (location: LocationItem) => LocationChangeRow.at(location.updated_at, location.location_id);

/** What the location's change-feed row copies of it (LOCATION_SUMMARY_FIELDS). */
function summaryOf(location: LocationItem): LocationSummary {
  const { location_id, shown, updated_at, categories, latitude, longitude, merchant_id, merchant_name, name } = location;
  return { location_id, shown, updated_at, categories, latitude, longitude, merchant_id, merchant_name, name };
}

/** The change-feed item of a location, written with the location. */
export function locationChangeItem(location: LocationItem) {
  return locationChangeRow(location).item(summaryOf(location));
}

/** Thrown for an invalid createLocation input; the message names every problem. */
export class LocationInputError extends Error {
  override readonly name = 'LocationInputError';
}

/**
 * Creates a location of an existing merchant: the operators' CLI, the demo seed and the management API's POST
 * (docs/merchant-api.md, "Locations") all make them here, by the rules of shared/schemas/location-settings.ts.
 * `alongside` gives writes that commit in the location's own transaction (its audit entry, the Idempotency-Key's
 * answer). Throws LocationInputError for invalid input.
 */
export async function createLocation(input: LocationInput, options: { alongside?: (location: LocationItem) => TransactItem[] } = {}): Promise<LocationItem> {
  const parsed = locationSettingsSchemas().locationInput.safeParse(input);
  if (!parsed.success) {
    throw new LocationInputError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'location'}: ${issue.message}`).join('; '));
  }
  // Side by side: an id drawn for a merchant that turns out not to exist is simply never used.
  const [merchant, locationId] = await Promise.all([getMerchant(parsed.data.merchant_id), nextId('location')]);
  if (!merchant) throw new LocationInputError(`merchant_id: merchant ${parsed.data.merchant_id} does not exist`);
  const now = isoSeconds();
  const location: LocationItem = {
    location_id: locationId,
    ...parsed.data,
    merchant_name: merchant.name,
    merchant_description_html: merchant.description_html,
    merchant_tip_preference: tipPreferenceOf(merchant.tip_preference),
    order_ahead_menu_id: null,
    fulfillment_types: [...new Set(parsed.data.fulfillment_types)],
    version: 1,
    created_at: now,
    updated_at: now,
  };
  // The location and its row in the change feed (GET /v14/locations) are written together: a location
  // is never listed by id without being in the feed. Whatever later changes a location must replace its
  // feed row in the same transaction (the row's key holds updated_at).
  const outcome = await transactWrite(
    () => [
      Location.at(locationId).putNew({ ...keys.merchantLocationsIndex(location.merchant_id, locationId), ...keys.allLocationsIndex(locationId), ...location }),
      locationChangeRow(location).putNew(summaryOf(location)),
      ...(options.alongside?.(location) ?? []),
    ],
    1,
  );
  if (!outcome.committed) throw new Error(`location ${locationId} already exists (${outcome.reasons.join(', ')})`);
  return location;
}

/** The location without its table keys (a listed page never has them: it reads LOCATION_ATTRIBUTES only). */
function withoutKeys(item: StoredLocation): LocationItem {
  const { pk: _pk, sk: _sk, gsi1pk: _gsi1pk, gsi1sk: _gsi1sk, gsi2pk: _gsi2pk, gsi2sk: _gsi2sk, entity: _entity, ...location } = item;
  return location;
}

export async function getLocation(locationId: number, options: { consistent?: boolean } = {}): Promise<LocationItem | undefined> {
  const item = await Location.at(locationId).get({ consistent: options.consistent ?? false });
  return item && withoutKeys(item);
}

/** What may change on a location after it is made: its copy of merchant settings and its menu link. */
export type LocationChange = Partial<Pick<LocationItem, 'merchant_tip_preference' | 'order_ahead_menu_id'>>;

/** Fields a change may set: everything but the location's identity, its merchant and what the change itself writes. */
export type LocationFieldsChange = Partial<Omit<LocationItem, 'location_id' | 'merchant_id' | 'version' | 'created_at' | 'updated_at'>>;

/**
 * The writes of one change of a location, for the caller's transaction: the location, guarded by the version
 * `current` was read at and by its merchant, with the version raised and a new `updated_at`; and its change-feed row
 * moved with it (GET /v14/locations lists it as changed, so apps that keep copies fetch it again). The location's
 * index keys name its merchant and id only, which never change. `next` is the location as the writes leave it.
 */
export function changeItems(current: LocationItem, change: LocationFieldsChange, now = isoSeconds()): { next: LocationItem; items: TransactItem[] } {
  const version = current.version ?? 0;
  const next: LocationItem = { ...current, ...change, version: version + 1, updated_at: now };
  const oldRow = locationChangeRow(current);
  const newRow = locationChangeRow(next);
  const guard = and<'version' | 'merchant_id'>(versionIs(version), equals('merchant_id', current.merchant_id));
  return {
    next,
    items: [
      Location.at(current.location_id).update({ set: { ...change, version: next.version, updated_at: now } }, guard),
      ...(oldRow.key.sk === newRow.key.sk ? [] : [oldRow.delete()]),
      newRow.put(summaryOf(next)),
    ],
  };
}

/**
 * Changes a location's fields (`changeItems`, alone in its transaction). A concurrent change makes it read again and
 * re-apply. No-op when nothing differs. Answers the location as stored after the change; undefined when it does not exist.
 */
export async function updateLocation(locationId: number, change: LocationChange): Promise<LocationItem | undefined> {
  const names = Object.keys(change) as (keyof LocationChange)[];
  for (let attempt = 1; attempt <= 5; attempt++) {
    const current = await getLocation(locationId, { consistent: true });
    if (!current || names.every((name) => current[name] === change[name])) return current;
    const { next, items } = changeItems(current, change);
    const outcome = await transactWrite(() => items);
    if (outcome.committed) return next;
  }
  throw new Error(`location ${locationId} kept changing; try again`);
}

/**
 * Sets a merchant's tip preference (admin `set-tip-preference`): the merchant, then each of its locations'
 * copy, which location lists and details read without a merchant read (each moves in the change feed). Not
 * one transaction, since a merchant may have more locations than one holds: a run cut short leaves some
 * locations with the old value, and running it again finishes them. Undefined for an unknown merchant.
 */
export async function setMerchantTipPreference(merchantId: number, preference: TipPreference): Promise<MerchantItem | undefined> {
  const merchant = await storeMerchantTipPreference(merchantId, preference);
  if (!merchant) return undefined;
  for (const location of await listMerchantLocations(merchantId)) await updateLocation(location.location_id, { merchant_tip_preference: preference });
  return merchant;
}

/**
 * A location's merchant and whether apps list it: two of its ~40 attributes, for reads that need no more
 * (A18's campaigns at a location), so the rest is neither sent nor unmarshalled.
 */
export async function getLocationListing(locationId: number): Promise<Pick<LocationItem, 'merchant_id' | 'shown'> | undefined> {
  return Location.at(locationId).get({ consistent: false, attributes: ['merchant_id', 'shown'] });
}

// ---------------------------------------------------------------------------------------------
// Listing

/**
 * Every attribute of a LocationItem (the compiler keeps the list complete and exact). A listed page
 * reads only these: the table's keys stay in DynamoDB instead of being sent, parsed and unmarshalled
 * with each of the page's eleven items only to be copied away again (withoutKeys).
 */
const LOCATION_ATTRIBUTES = Object.keys({
  location_id: true,
  merchant_id: true,
  merchant_name: true,
  merchant_description_html: true,
  merchant_tip_preference: true,
  name: true,
  street_address: true,
  extended_address: true,
  locality: true,
  region: true,
  postal_code: true,
  phone: true,
  latitude: true,
  longitude: true,
  time_zone: true,
  categories: true,
  fulfillment_types: true,
  delivery_radius_m: true,
  hours: true,
  accepts_tips_in_store: true,
  accepts_tips_on_delivery: true,
  accepts_tips_on_pickup: true,
  facebook_url: true,
  menu_url: true,
  newsletter_url: true,
  opentable_url: true,
  twitter_url: true,
  yelp_url: true,
  order_ahead_menu_id: true,
  ready_time_estimate_in_minutes: true,
  shown: true,
  version: true,
  supports_scheduling: true,
  partner_ids: true,
  pos_location_identifier: true,
  created_at: true,
  updated_at: true,
} satisfies Record<keyof LocationItem, true>);
/** `#l0, #l1, ...` with their names (several attribute names are DynamoDB reserved words). */
const LOCATION_PROJECTION = LOCATION_ATTRIBUTES.map((_, index) => `#l${index}`).join(', ');
const LOCATION_PROJECTION_NAMES = Object.fromEntries(LOCATION_ATTRIBUTES.map((name, index) => [`#l${index}`, name]));

/** One index partition that holds a set of locations in id order. */
interface LocationStream {
  indexName: 'gsi1' | 'gsi2';
  partitionAttribute: string;
  sortAttribute: string;
  partitionValue: string;
}

/** A global app lists every location (gsi2); any other app its merchants' locations (gsi1, one partition each). */
function streamsFor(app: App): LocationStream[] {
  if (app.global) {
    return [{ indexName: 'gsi2', partitionAttribute: 'gsi2pk', sortAttribute: 'gsi2sk', partitionValue: keys.allLocations().gsi2pk }];
  }
  return [...new Set(app.merchant_ids)].map((merchantId) => ({
    indexName: 'gsi1',
    partitionAttribute: 'gsi1pk',
    sortAttribute: 'gsi1sk',
    partitionValue: keys.merchantLocations(merchantId).gsi1pk,
  }));
}

/**
 * Reads a stream in id order, after `afterId`, keeping locations that are shown and offer any of
 * `fulfillmentTypes`, until `wanted` are found (or the stream ends). The filter runs in DynamoDB;
 * `Limit` bounds each read so a page costs about the same wherever it starts.
 */
async function readStream(stream: LocationStream, fulfillmentTypes: readonly FulfillmentType[], afterId: number, wanted: number): Promise<LocationItem[]> {
  const found: LocationItem[] = [];
  const typeValues = Object.fromEntries(fulfillmentTypes.map((type, index) => [`:type${index}`, type]));
  const anyType = fulfillmentTypes.map((_, index) => `contains(#types, :type${index})`).join(' OR ');
  let startKey: QueryCommandInput['ExclusiveStartKey'];
  // First read exactly what is missing (all match in the common case); widen when the filter drops many.
  let limit = Math.min(wanted, 1000);
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: stream.indexName,
        KeyConditionExpression: '#pk = :pk AND #sk > :after',
        FilterExpression: `#shown = :true AND (${anyType})`,
        ProjectionExpression: LOCATION_PROJECTION,
        ExpressionAttributeNames: {
          '#pk': stream.partitionAttribute,
          '#sk': stream.sortAttribute,
          '#shown': 'shown',
          '#types': 'fulfillment_types',
          ...LOCATION_PROJECTION_NAMES,
        },
        ExpressionAttributeValues: { ':pk': stream.partitionValue, ':after': keys.locationSortKey(afterId), ':true': true, ...typeValues },
        Limit: Number.isFinite(limit) ? limit : undefined,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) {
      const location = Location.from(item);
      if (location) found.push(location);
      if (found.length >= wanted) return found;
    }
    startKey = result.LastEvaluatedKey;
    limit = Number.isFinite(wanted) ? Math.min(Math.max((wanted - found.length) * 4, 20), 200) : wanted;
  } while (startKey);
  return found;
}

/** Up to `wanted` matching locations of the app with id > afterId, in id order (streams merged). */
async function readInIdOrder(app: App, fulfillmentTypes: readonly FulfillmentType[], afterId: number, wanted: number): Promise<LocationItem[]> {
  const streams = await Promise.all(streamsFor(app).map((stream) => readStream(stream, fulfillmentTypes, afterId, wanted)));
  return streams
    .flat()
    .sort((a, b) => a.location_id - b.location_id)
    .slice(0, wanted);
}

export interface Coordinates {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in meters (haversine). */
export function distanceInMeters(from: Coordinates, to: Coordinates): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.lat - from.lat);
  const dLng = radians(to.lng - from.lng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Whether a location delivers to a point: it offers delivery and the point lies within its delivery radius. */
export function deliversTo(location: LocationItem, point: Coordinates): boolean {
  return (
    location.fulfillment_types.includes('delivery') &&
    location.delivery_radius_m !== null &&
    distanceInMeters({ lat: location.latitude, lng: location.longitude }, point) <= location.delivery_radius_m
  );
}

export interface AppLocationsQuery {
  /** A location matches when it offers any of these. */
  fulfillmentTypes: readonly FulfillmentType[];
  /** Orders by increasing distance from this point. */
  near?: Coordinates;
  /** Only locations that deliver to `near`. */
  inDeliveryArea?: boolean;
  /** 1-based page number. */
  page: number;
  /** Id order only: the last location id of the previous page; the page starts after it. */
  after?: number;
}

export interface AppLocationsPage {
  locations: LocationItem[];
}

/**
 * One page of an app's locations.
 * - Without `near`: id order. With the `after` cursor a page reads only about a page of items,
 *   however deep it is; with only `page` it reads from the start and skips the earlier pages.
 * - With `near`: distance order, which needs every matching location of the app read and sorted.
 */
export async function listAppLocations(app: App, query: AppLocationsQuery, pageSize = LOCATIONS_PAGE_SIZE): Promise<AppLocationsPage> {
  if (query.near) {
    const near = query.near;
    const all = await readInIdOrder(app, query.fulfillmentTypes, 0, Number.POSITIVE_INFINITY);
    const matching = query.inDeliveryArea ? all.filter((location) => deliversTo(location, near)) : all;
    const sorted = matching
      .map((location) => ({ location, distance: distanceInMeters({ lat: location.latitude, lng: location.longitude }, near) }))
      .sort((a, b) => a.distance - b.distance || a.location.location_id - b.location.location_id)
      .map(({ location }) => location);
    const start = (query.page - 1) * pageSize;
    return { locations: sorted.slice(start, start + pageSize) };
  }
  if (query.after !== undefined) {
    return { locations: await readInIdOrder(app, query.fulfillmentTypes, query.after, pageSize) };
  }
  const skipped = (query.page - 1) * pageSize;
  const found = await readInIdOrder(app, query.fulfillmentTypes, 0, skipped + pageSize);
  return { locations: found.slice(skipped) };
}

/** Whether a paging cursor is a location's index sort key (what `pageOfMerchantLocations` resumes after). */
export function isLocationSortKey(value: string): boolean {
  const id = Number(value.slice(keys.merchantLocations(0).skPrefix.length));
  return Number.isSafeInteger(id) && id >= 1 && keys.locationSortKey(id) === value;
}

/**
 * One page of a merchant's locations by id, shown or not (the management API's list): after `cursor` (a location's
 * sort key from a previous page's Link), or, without it, the `page`th page of `pageSize`. Reads at most what the
 * page and the pages it skips hold.
 */
export async function pageOfMerchantLocations(merchantId: number, position: KeyOrderPosition, pageSize: number): Promise<LocationItem[]> {
  const { gsi1pk, skPrefix } = keys.merchantLocations(merchantId);
  return pageInKeyOrder({ index: 'gsi1', pk: gsi1pk, skPrefix }, position, pageSize, (item) => Location.from(item), {
    projection: { ProjectionExpression: LOCATION_PROJECTION, ExpressionAttributeNames: LOCATION_PROJECTION_NAMES },
  });
}

/** Every location of one merchant, in id order (shown or not, any fulfillment type). */
export async function listMerchantLocations(merchantId: number): Promise<LocationItem[]> {
  const partition = keys.merchantLocations(merchantId);
  const items = await queryAll({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': partition.gsi1pk, ':prefix': partition.skPrefix },
  });
  return items.flatMap((item) => Location.from(item) ?? []).map(withoutKeys);
}

// ---------------------------------------------------------------------------------------------
// Opening hours
//
// A page lists ten or more locations and asks each for its hours line and open state, so these read the
// periods with plain loops over a bit set of days (bit 0 = Monday) instead of building Sets, sorted arrays
// and interval objects per location: about a fifth of the CPU for the same answers.

/** `Mon`..`Sun` by position in WEEK_FROM_MONDAY. */
const DAY_LABELS: readonly string[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** Position of each day in WEEK_FROM_MONDAY. */
const DAY_POSITION: Record<Weekday, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };

/** The period's days as a bit set (bit 0 = Monday); a day listed twice counts once. */
function dayBits(days: readonly Weekday[]): number {
  let bits = 0;
  for (const day of days) bits |= 1 << DAY_POSITION[day];
  return bits;
}

/** `7am`, `7:30pm`, `12am` (midnight), `12pm` (noon), from minutes since midnight. */
function displayMinutes(minutesOfDay: number): string {
  const total = minutesOfDay % MINUTES_PER_DAY;
  const hours24 = Math.floor(total / 60);
  const minutes = total % 60;
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${hours12}${minutes === 0 ? '' : `:${String(minutes).padStart(2, '0')}`}${hours24 < 12 ? 'am' : 'pm'}`;
}

/** `Mon - Fri`, `Mon, Wed, Fri`, `Mon - Wed, Sat`: runs of three days or more as a range. */
function displayDays(days: readonly Weekday[]): string {
  const bits = dayBits(days);
  const parts: string[] = [];
  for (let first = 0; first < 7; first++) {
    if ((bits & (1 << first)) === 0) continue;
    let last = first;
    while (last < 6 && (bits & (1 << (last + 1))) !== 0) last++;
    if (last - first >= 2) parts.push(`${DAY_LABELS[first]} - ${DAY_LABELS[last]}`);
    else for (let day = first; day <= last; day++) parts.push(DAY_LABELS[day]!);
    first = last;
  }
  return parts.join(', ');
}

/** The listed `hours` field: one line per period, `Mon - Fri 7am - 7pm`, as the clients display it. Empty when no hours are posted. */
export function displayHours(hours: readonly OpeningPeriod[]): string {
  let lines = '';
  for (let index = 0; index < hours.length; index++) {
    const period = hours[index]!;
    const allDay = period.opens === '00:00' && period.closes === '24:00';
    lines += `${index === 0 ? '' : '\n'}${displayDays(period.days)} ${allDay ? 'open 24 hours' : `${displayMinutes(parseClock(period.opens))} - ${displayMinutes(parseClock(period.closes))}`}`;
  }
  return lines;
}

export type OpenState = 'open' | 'closed' | 'unknown';

const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
const ALL_DAYS = 0b1111111;

/**
 * Whether the location is open at `now`, read in its own time zone, and a line for people:
 * `Open until 9pm`, `Opens at 7am`, `Opens Tue 7am`, `Open 24 hours`; `unknown` when no hours are posted.
 * Each period is open on each of its days from `opens` (minutes from Monday 00:00) to `closes`, which runs
 * into the next day for an overnight period; Sunday's overnight period reaches into Monday, so each
 * interval is also looked at a week earlier. Open: the first period (in posted order) open now.
 * Closed: the soonest opening.
 */
export function openState(location: Pick<LocationItem, 'hours' | 'time_zone'>, now: Date = new Date()): { open_state: OpenState; open_state_display: string } {
  const { hours } = location;
  if (hours.length === 0) return { open_state: 'unknown', open_state_display: 'Hours not posted' };
  const local = localTime(now, location.time_zone);
  const dayIndex = DAY_POSITION[local.weekday];
  const current = dayIndex * MINUTES_PER_DAY + local.minutes;
  let nextStart = 0;
  let nextWait = Number.POSITIVE_INFINITY;
  for (const period of hours) {
    const opens = parseClock(period.opens);
    let closes = parseClock(period.closes);
    if (closes <= opens) closes += MINUTES_PER_DAY;
    const bits = dayBits(period.days);
    for (let day = 0; day < 7; day++) {
      if ((bits & (1 << day)) === 0) continue;
      const start = day * MINUTES_PER_DAY + opens;
      const end = day * MINUTES_PER_DAY + closes;
      if ((current >= start && current < end) || (current >= start - MINUTES_PER_WEEK && current < end - MINUTES_PER_WEEK)) {
        const roundTheClock = period.opens === '00:00' && period.closes === '24:00' && bits === ALL_DAYS;
        return { open_state: 'open', open_state_display: roundTheClock ? 'Open 24 hours' : `Open until ${displayMinutes(closes)}` };
      }
      const wait = (start - current + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
      if (wait < nextWait) {
        nextWait = wait;
        nextStart = start;
      }
    }
  }
  const opensDay = Math.floor(nextStart / MINUTES_PER_DAY) % 7;
  const opensAt = displayMinutes(nextStart % MINUTES_PER_DAY);
  const sameDay = opensDay === dayIndex && nextWait < MINUTES_PER_DAY;
  return { open_state: 'closed', open_state_display: sameDay ? `Opens at ${opensAt}` : `Opens ${DAY_LABELS[opensDay]} ${opensAt}` };
}

/**
 * Opening hours from the operators' short form: `mon-fri 07:00-19:00; sat,sun 08:00-17:00`
 * (day ranges wrap: `fri-mon`; `daily` is every day). Throws LocationInputError when unreadable.
 */
export function parseHoursSpec(spec: string): OpeningPeriod[] {
  if (spec.trim() === '') return [];
  return spec.split(';').map((entry) => {
    const match = /^\s*([a-z,-]+)\s+(\d{2}:\d{2})\s*-\s*(\d{2}:\d{2})\s*$/i.exec(entry);
    if (!match || !CLOCK_TIME.test(match[2]!) || !CLOCK_TIME.test(match[3]!)) {
      throw new LocationInputError(`hours: cannot read "${entry.trim()}"; expected e.g. "mon-fri 07:00-19:00; sat,sun 08:00-17:00"`);
    }
    const days = new Set<Weekday>();
    for (const group of match[1]!.toLowerCase().split(',')) {
      if (group === 'daily') WEEK_FROM_MONDAY.forEach((day) => days.add(day));
      else {
        const [from, to = from] = group.split('-') as [Weekday, Weekday?];
        const first = WEEK_FROM_MONDAY.indexOf(from);
        const last = WEEK_FROM_MONDAY.indexOf(to);
        if (first < 0 || last < 0) throw new LocationInputError(`hours: unknown day in "${group}"; use mon, tue, wed, thu, fri, sat, sun or daily`);
        for (let index = first; ; index = (index + 1) % 7) {
          days.add(WEEK_FROM_MONDAY[index]!);
          if (index === last) break;
        }
      }
    }
    return { days: WEEK_FROM_MONDAY.filter((day) => days.has(day)), opens: match[2]!, closes: match[3]! };
  });
}

// ---------------------------------------------------------------------------------------------
// Response shape

export interface ImageSize {
  width: number;
  height: number;
  density: number;
}

/**
 * The absolute URL of the order-ahead menu a location serves for a way of ordering (`pickup` or `delivery`):
 * null unless it offers that way and has a menu (issue 34.6: never `""`, which iOS follows as given).
 */
export function orderAheadMenuUrl(location: LocationItem, fulfillment: 'pickup' | 'delivery', baseUrl: string): string | null {
  const menuId = location.order_ahead_menu_id;
  return typeof menuId === 'number' && location.fulfillment_types.includes(fulfillment) ? menuUrl(baseUrl, menuId) : null;
}

/** The contract's Location resource: exactly its fields. */
export function serializeLocation(location: LocationItem, options: { baseUrl: string; image?: ImageSize; now?: Date }) {
  const image = options.image;
  const open = openState(location, options.now);
  return {
    accepts_tips_in_store: location.accepts_tips_in_store,
    accepts_tips_on_delivery: location.accepts_tips_on_delivery,
    accepts_tips_on_pickup: location.accepts_tips_on_pickup,
    categories: location.categories,
    extended_address: location.extended_address,
    facebook_url: location.facebook_url,
    fulfillment_types: location.fulfillment_types,
    hours: displayHours(location.hours),
    id: location.location_id,
    image_url: image
      ? `${options.baseUrl}/v15/locations/${location.location_id}/image?${new URLSearchParams({ width: String(image.width), height: String(image.height), density: String(image.density) }).toString()}`
      : null,
    latitude: location.latitude,
    locality: location.locality,
    longitude: location.longitude,
    menu_url: location.menu_url,
    merchant_description_html: location.merchant_description_html ?? '',
    merchant_id: location.merchant_id,
    merchant_name: location.merchant_name ?? '',
    merchant_tip_preference: tipPreferenceOf(location.merchant_tip_preference),
    newsletter_url: location.newsletter_url,
    open_state: open.open_state,
    open_state_display: open.open_state_display,
    opentable_url: location.opentable_url,
    partner_ids: location.partner_ids,
    pickup_menu_url: orderAheadMenuUrl(location, 'pickup', options.baseUrl),
    postal_code: location.postal_code,
    ready_time_estimate_in_minutes: location.ready_time_estimate_in_minutes,
    region: location.region,
    shown: location.shown,
    street_address: location.street_address,
    supports_scheduling: location.supports_scheduling,
    time_zone: location.time_zone,
    twitter_url: location.twitter_url,
    updated_at: location.updated_at,
    yelp_url: location.yelp_url,
  };
}

export type SerializedLocation = ReturnType<typeof serializeLocation>;

/**
 * A merchant's locations as the management API reads and changes them (docs/merchant-api.md, "Locations"): the stored
 * location as its merchant sees it (hidden ones included), created through the operators' own `createLocation`, and
 * the partial update of what the issue names. Each change is one transaction: the location (guarded by its version
 * and its merchant), its change-feed row, its audit log entry and the Idempotency-Key's answer.
 */
import type { StaffActor } from '#shared/auth/roles.ts';
import { keys } from '#shared/db/keys.ts';
import { lostRace, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import {
  changeItems,
  createLocation,
  getLocation,
  isLocationSortKey,
  pageOfMerchantLocations,
  type LocationFieldsChange,
  type LocationItem,
} from '#shared/domain/merchants/locations.ts';
import { conflict, forbidden, merchantHasNo, unprocessable } from '#shared/errors.ts';
import {
  deliveryAreaProblem,
  LOCATION_SETTABLE_FIELDS,
  MANAGER_SETTABLE_FIELDS,
  type LocationSettingsChange,
  type NewLocationFields,
} from '#shared/schemas/location-settings.ts';

/** Locations on one page of the management list. */
export const LOCATION_SETTINGS_PAGE_SIZE = 50;

export const LOCATION_NOT_FOUND = () => merchantHasNo('location', 'location');
const LOCATION_CHANGED = () =>
  conflict('The location changed while this change was made; read it again and send the change again.', 1, 'location', 'location_changed');

/** The location as its merchant sees and sets it: every stored field but the copies of the merchant's own. */
export function locationSettingsView(location: LocationItem) {
  return {
    location: {
      id: location.location_id,
      merchant_id: location.merchant_id,
      name: location.name,
      street_address: location.street_address,
      extended_address: location.extended_address,
      locality: location.locality,
      region: location.region,
      postal_code: location.postal_code,
      phone: location.phone ?? null,
      latitude: location.latitude,
      longitude: location.longitude,
      time_zone: location.time_zone,
      categories: location.categories,
      fulfillment_types: location.fulfillment_types,
      delivery_radius_m: location.delivery_radius_m,
      hours: location.hours,
      accepts_tips_in_store: location.accepts_tips_in_store,
      accepts_tips_on_delivery: location.accepts_tips_on_delivery,
      accepts_tips_on_pickup: location.accepts_tips_on_pickup,
      facebook_url: location.facebook_url,
      menu_url: location.menu_url,
      newsletter_url: location.newsletter_url,
      opentable_url: location.opentable_url,
      twitter_url: location.twitter_url,
      yelp_url: location.yelp_url,
      ready_time_estimate_in_minutes: location.ready_time_estimate_in_minutes,
      shown: location.shown,
      supports_scheduling: location.supports_scheduling,
      partner_ids: location.partner_ids,
      pos_location_identifier: location.pos_location_identifier ?? null,
      order_ahead_menu_id: location.order_ahead_menu_id ?? null,
      version: location.version ?? 0,
      created_at: location.created_at,
      updated_at: location.updated_at,
    },
  };
}

/** Whether a paging cursor names a location's position. */
export const isLocationCursor = isLocationSortKey;

/** The position after a location (its index sort key): what a Link's cursor carries. */
export const locationPosition = (location: LocationItem) => keys.locationSortKey(location.location_id);

/** One page of the merchant's locations by id, hidden ones included. */
export function listLocationSettings(merchantId: number, position: { cursor?: string; page: number }): Promise<LocationItem[]> {
  return pageOfMerchantLocations(merchantId, position, LOCATION_SETTINGS_PAGE_SIZE);
}

/** A location of the merchant, as stored now; 404 for an id of no location of this merchant, whoever's it is. */
export async function getMerchantLocation(merchantId: number, locationId: number): Promise<LocationItem> {
  const location = await getLocation(locationId, { consistent: true });
  if (location?.merchant_id !== merchantId) throw LOCATION_NOT_FOUND();
  return location;
}

/** The writes that commit with a change: its audit entry and the Idempotency-Key's stored answer. */
function recordedWith(
  context: AuditContext,
  change: { action: 'location.created' | 'location.updated'; location: LocationItem; before?: unknown; after: unknown },
  storeResponse: ((location: LocationItem) => TransactItem | undefined) | undefined,
): TransactItem[] {
  const entry = auditEntry(context, {
    merchantId: change.location.merchant_id,
    action: change.action,
    object: { type: 'location', id: change.location.location_id },
    before: change.before,
    after: change.after,
  });
  const stored = storeResponse?.(change.location);
  return stored ? [entry, stored] : [entry];
}

/** What commits with a new location: its `location.created` entry (after: the location as its merchant sees it) and the stored answer. */
export function locationCreatedItems(
  context: AuditContext,
  location: LocationItem,
  storeResponse?: (location: LocationItem) => TransactItem | undefined,
): TransactItem[] {
  return recordedWith(context, { action: 'location.created', location, after: locationSettingsView(location).location }, storeResponse);
}

/** A new location of the staff member's merchant (owner), through the operators' `createLocation`, with its audit entry. */
export function createMerchantLocation(input: {
  actor: StaffActor;
  context: AuditContext;
  fields: NewLocationFields;
  storeResponse?: (location: LocationItem) => TransactItem | undefined;
}): Promise<LocationItem> {
  return createLocation(
    { ...input.fields, merchant_id: input.actor.merchantId },
    { alongside: (location) => locationCreatedItems(input.context, location, input.storeResponse) },
  );
}

/** The fields a change names, each once; fulfillment types without repeats. */
function changedFields(change: LocationSettingsChange): LocationFieldsChange {
  const fields: LocationFieldsChange = {};
  for (const name of LOCATION_SETTABLE_FIELDS) {
    if (change[name] !== undefined) Object.assign(fields, { [name]: change[name] });
  }
  if (fields.fulfillment_types) fields.fulfillment_types = [...new Set(fields.fulfillment_types)];
  return fields;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The named fields of a location (what an update's audit entry shows before and after). */
function pick(location: LocationItem, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, location[name as keyof LocationItem]]));
}

/**
 * Changes some of a location's settings (LOCATION_SETTABLE_FIELDS; a manager only MANAGER_SETTABLE_FIELDS, 403
 * otherwise). The location the change would leave must keep the creation's rules (the delivery area: 422). One
 * transaction with the change-feed row, the audit entry (the changed fields before and after) and the stored
 * answer, conditional on the version read: a change that lost a race to another is 409 `location_changed` with
 * Retry-After, never applied over it. A change that differs in nothing writes nothing and answers the location.
 */
export async function changeLocationSettings(input: {
  actor: StaffActor;
  context: AuditContext;
  locationId: number;
  change: LocationSettingsChange;
  storeResponse?: (location: LocationItem) => TransactItem | undefined;
}): Promise<LocationItem> {
  const fields = changedFields(input.change);
  const names = Object.keys(fields);
  if (names.length === 0) {
    throw unprocessable('location', 'base', `Send at least one of ${LOCATION_SETTABLE_FIELDS.join(', ')}.`, 'missing');
  }
  if (input.actor.role !== 'owner') {
    const refused = names.find((name) => !(MANAGER_SETTABLE_FIELDS as readonly string[]).includes(name));
    if (refused) {
      throw forbidden(
        `A manager may change ${MANAGER_SETTABLE_FIELDS.join(' and ')} only; ${refused} needs the owner role.`,
        'role_not_allowed',
        'location',
        refused,
      );
    }
  }
  const current = await getMerchantLocation(input.actor.merchantId, input.locationId);
  const problem = deliveryAreaProblem({ ...current, ...fields });
  if (problem) throw unprocessable('location', 'delivery_radius_m', `Delivery radius m ${problem}`, 'invalid');
  const changing = names.filter((name) => !sameValue(current[name as keyof LocationItem], fields[name as keyof LocationFieldsChange]));
  if (changing.length === 0) return current;
  // Only what differs is written: a field sent with its stored value stays out of the update's expression.
  const written: LocationFieldsChange = { ...fields };
  for (const name of names) if (!changing.includes(name)) delete written[name as keyof LocationFieldsChange];
  const { next, items } = changeItems(current, written);
  const outcome = await transactWrite(() => [
    ...items,
    ...recordedWith(
      input.context,
      { action: 'location.updated', location: next, before: pick(current, changing), after: pick(next, changing) },
      input.storeResponse,
    ),
  ]);
  if (outcome.committed) return next;
  // The location's guard is the only condition that can fail but a lost race: its version moved (or it is gone).
  if (lostRace(outcome) || outcome.reasons[0] === 'ConditionalCheckFailed') throw LOCATION_CHANGED();
  throw new Error(`location change cancelled: ${outcome.reasons.join(',')}`);
}

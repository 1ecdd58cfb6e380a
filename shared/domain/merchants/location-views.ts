/**
 * Locations as POS integrations and older apps read them (docs/pos.md, "Merchant views"): one location's
 * details (GET /v15|v14/locations/:id), a merchant's locations (GET /v15|v14/merchants/:merchant_id/locations)
 * and the locations a merchant token acts for (GET /v15/managed_locations). The rows are locations.ts's;
 * this module only selects and shapes them.
 */
import { errorDetail, notFound, unauthorized } from '#shared/errors.ts';
import type { FulfillmentType } from '#shared/schemas/locations.ts';
import { tipPreferenceOf } from '#shared/schemas/vocabularies.ts';
import {
  getLocation,
  listAppLocations,
  orderAheadMenuUrl,
  serializeLocation,
  type AppLocationsPage,
  type Coordinates,
  type LocationItem,
} from '#shared/domain/merchants/locations.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';

/** A location anyone may see: it exists and is shown (hidden ones are 404, as LevelUp answered). */
export async function getShownLocation(locationId: number): Promise<LocationItem> {
  const location = await getLocation(locationId);
  if (!location?.shown) throw notFound();
  return location;
}

/** The documented 404 of a path naming a merchant that does not exist (LevelUp's v14 docs). */
export const MERCHANT_NOT_FOUND = () => notFound(errorDetail('merchant', 'id', 'Merchant not found.'));

/**
 * The merchant a merchant-token path names must be the token's: another merchant is 401 (the contract's
 * rule for a merchant token not tied to the merchant concerned), a merchant that does not exist 404.
 */
export async function requireOwnMerchant(tokenMerchantId: number, pathMerchantId: number): Promise<void> {
  if (pathMerchantId === tokenMerchantId) return;
  if (await getMerchant(pathMerchantId)) throw unauthorized('Not authorized for this merchant.', 'merchant', 'merchant_token');
  throw MERCHANT_NOT_FOUND();
}

/**
 * A page of one merchant's shown locations (GET /v15/merchants/:merchant_id/locations, no credential):
 * exactly what an app of that one merchant lists, so the same paging, filters and distance order.
 * 404 (empty) for a merchant that does not exist; its locations are read alongside.
 */
export async function listMerchantLocationsPage(
  merchantId: number,
  query: { fulfillmentTypes: readonly FulfillmentType[]; near?: Coordinates; page: number; after?: number },
): Promise<AppLocationsPage> {
  const [merchant, page] = await Promise.all([
    getMerchant(merchantId),
    listAppLocations({ app_id: 0, name: '', global: false, merchant_ids: [merchantId] }, query),
  ]);
  if (!merchant) throw notFound();
  return page;
}

/** `101 Arch St., Boston, MA`: the one-line address a POS shows when staff pick their location. */
function oneLineAddress(location: LocationItem): string {
  return [location.street_address, location.extended_address, location.locality, location.region].filter((part) => part && part.trim() !== '').join(', ');
}

/** GET /v15/managed_locations: a location the token may place orders for (the C# SDK reads these six fields). */
export function serializeManagedLocation(location: LocationItem) {
  return {
    location: {
      address: oneLineAddress(location),
      id: location.location_id,
      merchant_id: location.merchant_id,
      merchant_name: location.merchant_name ?? '',
      // Staff pick from this list: a location without an internal label shows its street address.
      name: location.name ?? location.street_address,
      pos_location_identifier: location.pos_location_identifier ?? null,
      tip_preference: tipPreferenceOf(location.merchant_tip_preference),
    },
  };
}

/**
 * The v15 location details: the contract's Location plus what the C# and iOS SDKs read besides
 * (`name`, `phone`, `foodler_url`, `delivery_menu_url`, and `visible`, iOS's name for `shown`).
 */
export function locationDetailsV15(location: LocationItem, options: { baseUrl: string; now?: Date }) {
  return {
    ...serializeLocation(location, options),
    name: location.name,
    phone: location.phone ?? null,
    foodler_url: null,
    delivery_menu_url: orderAheadMenuUrl(location, 'delivery', options.baseUrl),
    visible: location.shown,
  };
}

/** The v14 location details: the older field set iOS and Android read. */
export function locationDetailsV14(location: LocationItem, options: { baseUrl: string; now?: Date }) {
  const v15 = locationDetailsV15(location, options);
  return {
    categories: v15.categories,
    delivery_menu_url: v15.delivery_menu_url,
    description_html: v15.merchant_description_html,
    extended_address: v15.extended_address,
    facebook_url: v15.facebook_url,
    foodler_url: v15.foodler_url,
    hours: v15.hours,
    id: v15.id,
    latitude: v15.latitude,
    locality: v15.locality,
    longitude: v15.longitude,
    menu_url: v15.menu_url,
    merchant_description_html: v15.merchant_description_html,
    merchant_id: v15.merchant_id,
    merchant_name: v15.merchant_name,
    merchant_tip_preference: v15.merchant_tip_preference,
    name: v15.name,
    newsletter_url: v15.newsletter_url,
    opentable_url: v15.opentable_url,
    phone: v15.phone,
    pickup_menu_url: v15.pickup_menu_url,
    postal_code: v15.postal_code,
    region: v15.region,
    shown: v15.shown,
    street_address: v15.street_address,
    twitter_url: v15.twitter_url,
    updated_at: v15.updated_at,
    visible: v15.visible,
    yelp_url: v15.yelp_url,
  };
}

/** GET /v14/merchants/:merchant_id/locations: LevelUp's v14 summary (the C# SDK reads these three). */
export function merchantLocationSummaryV14(location: LocationItem) {
  return {
    location: {
      id: location.location_id,
      merchant_tip_preference: tipPreferenceOf(location.merchant_tip_preference),
      name: location.name,
    },
  };
}

/**
 * Which location delivers to a user's saved address (GET /v15/user_addresses/:id/delivery_location): of
 * the app's locations that offer delivery and whose delivery area holds the address (locations.ts
 * `deliversTo`), the nearest one with an order-ahead menu. The app then loads `delivery_menu_url`.
 */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { notFound } from '#shared/errors.ts';
import { UserAddress } from '#shared/domain/identity/addresses.ts';
import { listAppLocations, serializeLocation, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { appOf } from '#shared/domain/orders/user-orders.ts';
import { OrderAheadMenu, type MenuRecord } from './menu.ts';
import { menuUrl } from './menu-view.ts';

/** Nearest first, so the first with a menu wins; locations without a menu cannot take orders. */
const CANDIDATES = 25;

export interface DeliveryLocation {
  location: LocationItem;
  menu: Pick<MenuRecord, 'menu_id'>;
}

/** 404 (empty) when the address is not the caller's, has no coordinates, or no location delivers there. */
export async function deliveryLocationFor(user: { userId: number; appId: number }, addressId: number): Promise<DeliveryLocation> {
  const [app, address] = await Promise.all([appOf(user.appId), UserAddress.at(user.userId, addressId).get({ consistent: false })]);
  if (!app || !address || typeof address.latitude !== 'number' || typeof address.longitude !== 'number') throw notFound();
  const near = { lat: address.latitude, lng: address.longitude };
  const { locations } = await listAppLocations(app, { fulfillmentTypes: ['delivery'], near, inDeliveryArea: true, page: 1 }, CANDIDATES);
  if (locations.length === 0) throw notFound();
  // Only which locations have a menu, and its id (what the answer links): not up to 25 whole menus.
  const menus = await readItems(
    locations.map((location) => keys.orderAheadMenu(location.location_id)),
    { consistent: false, attributes: ['menu_id'] },
  );
  const index = menus.findIndex((menu) => menu !== undefined);
  if (index < 0) throw notFound();
  return { location: locations[index]!, menu: { menu_id: OrderAheadMenu.from(menus[index])!.menu_id } };
}

export function serializeDeliveryLocation({ location, menu }: DeliveryLocation, baseUrl: string) {
  const menuLink = menuUrl(baseUrl, menu.menu_id);
  return {
    location: {
      ...serializeLocation(location, { baseUrl }),
      name: location.name,
      phone: location.phone ?? null,
      visible: location.shown,
      delivery_menu_url: menuLink,
      pickup_menu_url: location.fulfillment_types.includes('pickup') ? menuLink : null,
    },
  };
}

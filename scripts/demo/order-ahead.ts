/**
 * Order-ahead demo data: a kitchen of the demo merchant that takes pickup and delivery around the
 * clock (so the demo works at any hour), the sample menu (option ids above 2^32, a free-choice group,
 * a breakfast-only category, an upsell triggered by the burrito) and a delivery address of the first
 * demo user inside its delivery area.
 */
import { createAddress } from '#shared/domain/identity/addresses.ts';
import { createAddressBody } from '#shared/schemas/addresses.ts';
import { getMenuById, menuItems } from '#shared/domain/order-ahead/menu.ts';
import { menuUrl } from '#shared/domain/order-ahead/menu-view.ts';
import { sampleMenu, SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import type { DemoContext } from './context.ts';
import { createLocationAs, publishMenuAs } from './management.ts';

export async function seedOrderAhead(context: DemoContext): Promise<Record<string, unknown>> {
  // The kitchen is the owner's, through the management API like the merchant's other locations.
  const locationId = await createLocationAs(context.owner, 'order-ahead-kitchen', {
    name: 'Order Ahead Kitchen',
    street_address: '1 Broadway',
    locality: 'Cambridge',
    region: 'MA',
    postal_code: '02142',
    phone: '(617) 555-0199',
    latitude: 42.3629,
    longitude: -71.0837,
    time_zone: 'America/New_York',
    fulfillment_types: ['pickup', 'delivery'],
    delivery_radius_m: 4000,
    hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], opens: '00:00', closes: '24:00' }],
    supports_scheduling: true,
    ready_time_estimate_in_minutes: 15,
  });
  // It is one of the demo merchant's locations like the others: demo.json lists it with them.
  if (!context.merchant.location_ids.includes(locationId)) context.merchant.location_ids.push(locationId);
  const menu = await seedMenu(context, locationId);
  context.progress('order ahead menu', { location_id: locationId, menu_id: menu.menu_id });

  const user = context.users[0]!;
  const address = await createAddress(
    user.id,
    createAddressBody.parse({
      user_address: {
        address_type: 'delivery',
        street_address: '77 Massachusetts Ave',
        locality: 'Cambridge',
        region: 'MA',
        postal_code: '02139',
        nickname: 'Work',
        latitude: 42.3592,
        longitude: -71.0935,
      },
    }).user_address,
  );
  context.progress('order ahead delivery address', { user_id: user.id, address_id: address.address_id });

  return {
    menu: {
      id: menu.menu_id,
      location_id: locationId,
      // What apps follow (suggested orders' and delivery locations' menu_url); the location's menu path serves the same menu.
      menu_url: menuUrl(context.base_url, menu.menu_id),
      location_menu_url: `${context.base_url}/v15/order_ahead/locations/${locationId}/menu`,
      ordering_provider: 'sandbox-accepts',
      item_ids: menuItems(menu).map((entry) => entry.item.id),
      item_with_option: { id: SAMPLE_IDS.tots, option_id: SAMPLE_IDS.large },
      upsell_trigger_item_id: SAMPLE_IDS.burrito,
    },
    delivery_address_id: address.address_id,
  };
}

/** The kitchen's menu, drafted and published by the owner through the management API like any merchant's. */
async function seedMenu(context: DemoContext, locationId: number) {
  const menuId = await publishMenuAs(context.owner, 'order-ahead-kitchen', locationId, sampleMenu());
  const menu = await getMenuById(menuId);
  if (!menu) throw new Error(`menu ${menuId} was published but cannot be read`);
  return menu;
}

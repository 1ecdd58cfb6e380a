/**
 * Where an order-ahead menu is served (GET /v15/order_ahead/menus/:menu_id): the one absolute URL every view
 * links a menu by (a location's `pickup_menu_url` and `delivery_menu_url`, suggested orders' `menu_url`).
 * Free of imports, so the location views can link a menu without loading the menu module.
 */
export function menuUrl(baseUrl: string, menuId: number): string {
  return `${baseUrl}/v15/order_ahead/menus/${menuId}`;
}

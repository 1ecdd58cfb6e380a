/**
 * The menu as apps read it, at both of its addresses: `menu_url` (GET /v15/order_ahead/menus/:menu_id,
 * what suggested orders and delivery locations link) and the location's menu path. The shape is the LevelUp
 * iOS SDK's order-ahead menu with the fields LevelUp's docs add (allows_special_instructions and its
 * character limit, category_groups, item metadata, tax_rate, timescopes), plus `available_now` and
 * `availability_windows` (local times in `time_zone`) so an app can grey out what cannot be ordered now.
 */
import { WEEKDAYS, type TimeWindow, type Weekday } from '#shared/time.ts';
import { freeQuantities, itemAvailableAt, type MenuItem, type MenuOption, type MenuRecord } from './menu.ts';
import { menuUrl } from '#shared/domain/merchants/menu-links.ts';

export { menuUrl };

/** The item picture endpoint (the images area serves it: 302 to the picture at the asked size, 404 when none). */
export function menuItemImageUrl(baseUrl: string, menuId: number, itemId: number): string {
  return `${menuUrl(baseUrl, menuId)}/items/${itemId}/image`;
}

function priceWithDefaults(item: MenuItem): number {
  let total = item.price_amount;
  for (const group of item.option_groups) {
    const selections = group.default_option_ids
      .map((optionId) => group.options.find((option) => option.id === optionId))
      .filter((option): option is MenuOption => option !== undefined)
      .map((option) => ({ option, quantity: 1 }));
    const free = freeQuantities(group, selections);
    for (const { option } of selections) total += free.get(option.id) ? 0 : option.price_amount;
  }
  return total;
}

function serializeWindows(windows: readonly TimeWindow[]) {
  return windows.map((window) => ({ start: window.start, end: window.end, days: window.days ?? [...WEEKDAYS] }));
}

const WEEK_FROM_MONDAY: readonly Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];
const DAY_NAMES: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/**
 * LevelUp's `timescopes`: one per window and run of consecutive days (Monday first), with the window's
 * local times. An item without windows of its own has its category's; none at all: an empty list.
 */
function timescopes(windows: readonly TimeWindow[]) {
  return windows.flatMap((window) => {
    const days = new Set(window.days ?? WEEKDAYS);
    const runs: Weekday[][] = [];
    for (const day of WEEK_FROM_MONDAY) {
      if (!days.has(day)) continue;
      const run = runs.at(-1);
      if (run && WEEK_FROM_MONDAY.indexOf(run.at(-1)!) === WEEK_FROM_MONDAY.indexOf(day) - 1) run.push(day);
      else runs.push([day]);
    }
    return runs.map((run) => ({
      day_of_week_starts_at: DAY_NAMES[run[0]!],
      day_of_week_ends_at: DAY_NAMES[run.at(-1)!],
      time_of_day_starts_at: window.start,
      time_of_day_ends_at: window.end,
    }));
  });
}

export function serializeMenu(menu: MenuRecord, baseUrl: string, now: Date = new Date()) {
  const settings = menu.settings;
  // Decimal, as LevelUp documents it (0.099); basis points are exact, so this is too at 4 places.
  const taxRate = settings.tax_rate_basis_points / 10_000;
  return {
    menu: {
      id: menu.menu_id,
      location_id: menu.location_id,
      time_zone: menu.time_zone,
      updated_at: menu.updated_at,
      allows_special_instructions: settings.allows_special_instructions,
      special_instructions_character_limit: settings.special_instructions_character_limit,
      category_groups: (menu.category_groups ?? []).map((group, groupIndex) => ({
        category_group: { id: group.id, name: group.name, description: group.description, display_order: groupIndex + 1 },
      })),
      categories: menu.categories.map((category, categoryIndex) => ({
        category: {
          id: category.id,
          name: category.name,
          description: category.description,
          category_group_id: category.category_group_id ?? null,
          display_order: categoryIndex + 1,
          availability_windows: serializeWindows(category.availability_windows),
          items: category.items.map((item, itemIndex) => ({
            item: {
              id: item.id,
              name: item.name,
              description: item.description,
              display_order: itemIndex + 1,
              price_amount: item.price_amount,
              image_url: item.image_url ? menuItemImageUrl(baseUrl, menu.menu_id, item.id) : null,
              nutrition: item.nutrition,
              sku: item.sku,
              upc: item.upc,
              metadata: item.metadata ?? {},
              allows_special_instructions: item.allows_special_instructions ?? settings.allows_special_instructions,
              special_instructions_character_limit: item.special_instructions_character_limit ?? settings.special_instructions_character_limit,
              tax_rate: taxRate,
              timescopes: timescopes(item.availability_windows.length > 0 ? item.availability_windows : category.availability_windows),
              available_now: itemAvailableAt(menu, { category, item }, now),
              availability_windows: serializeWindows(item.availability_windows),
              option_groups: item.option_groups.map((group, groupIndex) => ({
                option_group: {
                  id: group.id,
                  name: group.name,
                  display_order: groupIndex + 1,
                  minimum_choices: group.minimum_choices,
                  maximum_choices: group.maximum_choices,
                  free_choices: group.free_choices,
                  default_option_ids: group.default_option_ids,
                  options: group.options.map((option, optionIndex) => ({
                    option: {
                      id: option.id,
                      name: option.name,
                      display_order: optionIndex + 1,
                      price_amount: option.price_amount,
                      available: option.available,
                    },
                  })),
                },
              })),
              price_with_defaults_amount: priceWithDefaults(item),
            },
          })),
        },
      })),
    },
  };
}

/**
 * Order-ahead menus: one per location, published whole (the operators' `create-menu`, or a merchant's draft through
 * the management API: menu-drafts.ts, both through `menuPublication`) and read whole by apps (the menu endpoint) and by validation. Ids of items and options come from the
 * merchant's own system: options are 64-bit POS ids, kept as JSON numbers (exact up to 2^53, which
 * is also what JavaScript clients can hold), never narrowed to 32 bits.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '#shared/schemas/zod.ts';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { itemIsNew, versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { isoSeconds, WEEKDAYS, withinWindows } from '#shared/time.ts';
import { changeItems, getLocation, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { DEFAULT_ORDERING_PROVIDER, ORDERING_PROVIDER_NAMES } from '#shared/ordering/index.ts';

const id = z.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER));
const money = z.number().check(z.int(), z.gte(0), z.lte(100_000_00));
const clock = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)'));

/**
 * The bounds of a menu (one stored item, read whole by apps and by validation; docs/merchant-api.md, "Menus"). The
 * request body's 64 KB and MAX_MENU_JSON_CHARS bound the whole; these bound each list.
 */
export const MENU_BOUNDS = {
  categories: 50,
  itemsPerCategory: 100,
  items: 300,
  optionGroupsPerItem: 10,
  optionsPerGroup: 50,
  choices: 100,
  upsells: 20,
  upsellIds: 20,
  windows: 7,
  nutritionFacts: 20,
} as const;
/** The stored menu's largest JSON (defaults filled in), well inside DynamoDB's 400 KB item. */
export const MAX_MENU_JSON_CHARS = 200_000;
const choices = z.number().check(z.int(), z.gte(0), z.lte(MENU_BOUNDS.choices));

export const timeWindowSchema = z.object({ start: clock, end: clock, days: z.optional(z.array(z.enum(WEEKDAYS)).check(z.minLength(1), z.maxLength(7))) });
const windows = z.array(timeWindowSchema).check(z.maxLength(MENU_BOUNDS.windows));

const optionSchema = z.object({
  id,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  price_amount: z._default(money, 0),
  /** false while the option is sold out. */
  available: z._default(z.boolean(), true),
});

const optionGroupSchema = z
  .object({
    id,
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    minimum_choices: z._default(choices, 0),
    /** null: no maximum. */
    maximum_choices: z._default(z.nullable(z.number().check(z.int(), z.gte(1), z.lte(MENU_BOUNDS.choices))), null),
    /** How many selections of the group cost nothing (the most expensive ones). */
    free_choices: z._default(choices, 0),
    default_option_ids: z._default(z.array(id).check(z.maxLength(MENU_BOUNDS.optionsPerGroup)), []),
    options: z.array(optionSchema).check(z.minLength(1), z.maxLength(MENU_BOUNDS.optionsPerGroup)),
  })
  .check(
    z.refine((group) => group.maximum_choices === null || group.maximum_choices >= group.minimum_choices, {
      message: 'maximum_choices must be at least minimum_choices',
      path: ['maximum_choices'],
    }),
    z.refine((group) => group.default_option_ids.every((optionId) => group.options.some((option) => option.id === optionId)), {
      message: 'default_option_ids must name options of the group',
      path: ['default_option_ids'],
    }),
  );

/** Free-form facts a merchant attaches to an item (LevelUp's `metadata`): a few short scalar values. */
const metadataSchema = z._default(
  z
    .record(z.string().check(z.minLength(1), z.maxLength(50)), z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean(), z.null()]))
    .check(z.refine((metadata) => Object.keys(metadata).length <= 20, 'metadata holds at most 20 keys')),
  {},
);

const itemSchema = z.object({
  id,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z._default(z.string().check(z.maxLength(2000)), ''),
  price_amount: money,
  /** The item's picture (its source): when set, the menu links the item's image endpoint. */
  image_url: z._default(z.nullable(z.string().check(z.url())), null),
  metadata: metadataSchema,
  /** Overrides the menu's setting for this item's own instructions; null: the menu's. */
  allows_special_instructions: z._default(z.nullable(z.boolean()), null),
  special_instructions_character_limit: z._default(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(1000))), null),
  nutrition: z._default(
    z
      .record(z.string().check(z.maxLength(50)), z.string().check(z.maxLength(100)))
      .check(z.refine((facts) => Object.keys(facts).length <= MENU_BOUNDS.nutritionFacts, `nutrition holds at most ${MENU_BOUNDS.nutritionFacts} facts`)),
    {},
  ),
  sku: z._default(z.nullable(z.string().check(z.maxLength(100))), null),
  upc: z._default(z.nullable(z.string().check(z.maxLength(100))), null),
  /** false while the item is sold out. */
  available: z._default(z.boolean(), true),
  /** Local-time windows the item can be ordered for; none means whenever the location is open. */
  availability_windows: z._default(windows, []),
  option_groups: z._default(z.array(optionGroupSchema).check(z.maxLength(MENU_BOUNDS.optionGroupsPerItem)), []),
});

/** Groups of categories apps may show together (LevelUp's `category_groups`, e.g. "Meats"). */
const categoryGroupSchema = z.object({
  id,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z._default(z.nullable(z.string().check(z.maxLength(2000))), null),
});

const categorySchema = z.object({
  id,
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z._default(z.nullable(z.string().check(z.maxLength(2000))), null),
  /** The group it is shown in (one of category_groups), or null. */
  category_group_id: z._default(z.nullable(id), null),
  /** Applies to every item of the category, in addition to the item's own windows. */
  availability_windows: z._default(windows, []),
  items: z.array(itemSchema).check(z.minLength(1), z.maxLength(MENU_BOUNDS.itemsPerCategory)),
});

/** Who an upsell is shown to. `min_orders`: users with at least that many orders. */
export const segmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('everyone') }),
  z.object({ kind: z.literal('new_customers') }),
  z.object({ kind: z.literal('min_orders'), min_orders: z.number().check(z.int(), z.gte(1)) }),
]);
export type CustomerSegment = z.output<typeof segmentSchema>;

export const upsellSchema = z.object({
  /** Assigned when absent. */
  id: z.optional(id),
  prompt: z.string().check(z.minLength(1), z.maxLength(200)),
  show_prices: z._default(z.boolean(), true),
  /** Menu items suggested. */
  item_ids: z.array(id).check(z.minLength(1), z.maxLength(10)),
  /** Shown when the cart holds any of these items; empty: for any cart. */
  trigger_item_ids: z._default(z.array(id).check(z.maxLength(MENU_BOUNDS.upsellIds)), []),
  segment: z._default(segmentSchema, { kind: 'everyone' }),
  /** Local-time windows it is shown in; empty: always. */
  time_windows: z._default(windows, []),
});
export type UpsellInput = z.input<typeof upsellSchema>;

export const orderAheadSettingsSchema = z.object({
  /** Sales tax in basis points (825 = 8.25%), applied to the subtotal and fees. */
  tax_rate_basis_points: z._default(z.number().check(z.int(), z.gte(0), z.lte(5000)), 0),
  delivery_fee_amount: z._default(money, 0),
  /** The merchant's own service fee. */
  service_fee_amount: z._default(money, 0),
  /** The fulfillment provider's fee; service_fee_amount shown to users is both combined. */
  provider_service_fee_amount: z._default(money, 0),
  allows_special_instructions: z._default(z.boolean(), true),
  special_instructions_character_limit: z._default(z.number().check(z.int(), z.gte(0), z.lte(1000)), 140),
  pickup_instructions: z._default(z.nullable(z.string().check(z.maxLength(500))), null),
  delivery_instructions: z._default(z.nullable(z.string().check(z.maxLength(500))), null),
  /** Added to the location's ready_time_estimate_in_minutes for delivery orders. */
  delivery_minutes: z._default(z.number().check(z.int(), z.gte(0), z.lte(24 * 60)), 30),
  /** How far ahead ready times are offered (slots every 15 minutes). */
  scheduling_horizon_minutes: z._default(z.number().check(z.int(), z.gte(0), z.lte(7 * 24 * 60)), 4 * 60),
  /** Where paid orders are forwarded (docs/order-ahead.md, "Sandbox ordering provider"). */
  ordering_provider: z._default(z.enum(ORDERING_PROVIDER_NAMES), DEFAULT_ORDERING_PROVIDER),
});
export type OrderAheadSettings = z.output<typeof orderAheadSettingsSchema>;

export const menuInputSchema = z
  .object({
    settings: z._default(orderAheadSettingsSchema, orderAheadSettingsSchema.parse({})),
    category_groups: z._default(z.array(categoryGroupSchema).check(z.maxLength(50)), []),
    categories: z.array(categorySchema).check(z.minLength(1), z.maxLength(MENU_BOUNDS.categories)),
    upsells: z._default(z.array(upsellSchema).check(z.maxLength(MENU_BOUNDS.upsells)), []),
  })
  .check(
    z.superRefine((menu, context) => {
      const groupIds = new Set(menu.category_groups.map((group) => group.id));
      menu.categories.forEach((category, categoryIndex) => {
        if (category.category_group_id !== null && !groupIds.has(category.category_group_id)) {
          context.addIssue({
            code: 'custom',
            message: `category group ${category.category_group_id} is not in category_groups`,
            path: ['categories', categoryIndex, 'category_group_id'],
          });
        }
      });
      repeatedIds(menu.categories, context, ['categories'], 'category');
      repeatedIds(menu.category_groups, context, ['category_groups'], 'category group');
      repeatedIds(
        menu.upsells.filter((upsell) => upsell.id !== undefined),
        context,
        ['upsells'],
        'upsell',
      );
      const itemCount = menu.categories.reduce((sum, category) => sum + category.items.length, 0);
      if (itemCount > MENU_BOUNDS.items)
        context.addIssue({ code: 'custom', message: `a menu holds at most ${MENU_BOUNDS.items} items (it has ${itemCount})`, path: ['categories'] });
      const itemIds = new Set<number>();
      menu.categories.forEach((category, categoryIndex) =>
        category.items.forEach((item, itemIndex) => {
          repeatedIds(item.option_groups, context, ['categories', categoryIndex, 'items', itemIndex, 'option_groups'], 'option group');
          if (itemIds.has(item.id))
            context.addIssue({ code: 'custom', message: `item id ${item.id} is used twice`, path: ['categories', categoryIndex, 'items', itemIndex, 'id'] });
          itemIds.add(item.id);
          // option_ids name options without their group, so an option id is unique within its item.
          const optionIds = item.option_groups.flatMap((group) => group.options.map((option) => option.id));
          const repeated = optionIds.filter((optionId, index) => optionIds.indexOf(optionId) !== index);
          if (repeated.length > 0)
            context.addIssue({
              code: 'custom',
              message: `option ids ${[...new Set(repeated)].join(', ')} are used twice in item ${item.id}`,
              path: ['categories', categoryIndex, 'items', itemIndex],
            });
        }),
      );
      menu.upsells.forEach((upsell, index) => {
        for (const itemId of [...upsell.item_ids, ...upsell.trigger_item_ids]) {
          if (!itemIds.has(itemId)) context.addIssue({ code: 'custom', message: `upsell names unknown item ${itemId}`, path: ['upsells', index] });
        }
      });
    }),
  );
export type MenuInput = z.input<typeof menuInputSchema>;
/** A menu as validated: every default filled in (what a draft stores and a publish writes). */
export type MenuContent = z.output<typeof menuInputSchema>;

/** An issue for each id used twice in a list (order validation finds an entry by its id: a repeat would hide one). */
function repeatedIds(list: readonly { id?: number }[], context: z.core.$RefinementCtx, path: PropertyKey[], what: string): void {
  const seen = new Set<number>();
  list.forEach((entry, index) => {
    if (entry.id === undefined) return;
    if (seen.has(entry.id)) context.addIssue({ code: 'custom', message: `${what} id ${entry.id} is used twice`, path: [...path, index, 'id'] });
    seen.add(entry.id);
  });
}

export type MenuOption = z.output<typeof optionSchema>;
export type MenuOptionGroup = z.output<typeof optionGroupSchema>;
export type MenuItem = z.output<typeof itemSchema>;
export type MenuCategory = z.output<typeof categorySchema>;
export type MenuCategoryGroup = z.output<typeof categoryGroupSchema>;
export type Upsell = z.output<typeof upsellSchema> & { id: number };

export interface MenuRecord {
  menu_id: number;
  location_id: number;
  merchant_id: number;
  /** IANA zone of the location, copied so availability needs no second read. */
  time_zone: string;
  settings: OrderAheadSettings;
  /** Absent on menus published before groups existed. */
  category_groups?: MenuCategoryGroup[];
  categories: MenuCategory[];
  upsells: Upsell[];
  /** Bumped by each write; guards concurrent upsell additions. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** A menu is also found by its own id (gsi1, menu_url). */
type MenuIndexKeys = ReturnType<typeof keys.menuIdIndex>;

/** The location's menu, one item per location; `version` guards every rewrite. */
export const OrderAheadMenu = defineEntity<MenuRecord & MenuIndexKeys>()({ entity: 'OrderAheadMenu', key: keys.orderAheadMenu });
export type OrderAheadMenuItem = EntityItem<typeof OrderAheadMenu>;

/** Upsells as stored: each with its id, assigned when the input has none. */
export async function withUpsellIds(upsells: z.output<typeof upsellSchema>[]): Promise<Upsell[]> {
  return Promise.all(upsells.map(async (upsell) => ({ ...upsell, id: upsell.id ?? (await nextId('upsell')) })));
}

/**
 * The writes that publish `content` as the location's menu, for the caller's transaction: the menu whole (under
 * the version `existing` was read at, or only if there is none, so a concurrent publish loses instead of being
 * overwritten), keeping its menu id (menu_url and orders name it); and, the first time, the location's link to it
 * (pickup_menu_url, delivery_menu_url) in the same transaction, so a link never names a menu that is not there.
 * The one publishing step of the operators' `create-menu` and the management API's draft publish.
 */
export async function menuPublication(
  location: LocationItem,
  content: MenuContent,
  existing: OrderAheadMenuItem | undefined,
): Promise<{ menu: MenuRecord; items: TransactItem[] }> {
  const now = isoSeconds();
  const menu: MenuRecord = {
    menu_id: existing?.menu_id ?? (await nextId('menu')),
    location_id: location.location_id,
    merchant_id: location.merchant_id,
    time_zone: location.time_zone,
    settings: content.settings,
    category_groups: content.category_groups,
    categories: content.categories,
    upsells: await withUpsellIds(content.upsells),
    version: (existing?.version ?? 0) + 1,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  const items: TransactItem[] = [
    OrderAheadMenu.at(location.location_id).put({ ...menu, ...keys.menuIdIndex(menu.menu_id) }, existing ? versionIs(existing.version) : itemIsNew),
  ];
  if (location.order_ahead_menu_id !== menu.menu_id) items.push(...changeItems(location, { order_ahead_menu_id: menu.menu_id }, now).items);
  return { menu, items };
}

export function getMenu(locationId: number): Promise<OrderAheadMenuItem | undefined> {
  return OrderAheadMenu.at(locationId).get({ consistent: false });
}

/** A menu by its own id (menu_url): one Query of its gsi1 entry (menus are written rarely, so the index copy is cheap). */
export async function getMenuById(menuId: number): Promise<OrderAheadMenuItem | undefined> {
  const index = keys.menuIdIndex(menuId);
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': index.gsi1pk, ':sk': index.gsi1sk },
      Limit: 1,
    }),
  );
  return OrderAheadMenu.from(result.Items?.[0]);
}

/** Adds one upsell to a location's menu (admin `create-upsell`); its items must be on the menu. */
export async function addUpsell(locationId: number, input: unknown): Promise<Upsell> {
  const parsed = upsellSchema.parse(input);
  for (let attempt = 0; attempt < 3; attempt++) {
    const menu = await getMenu(locationId);
    if (!menu) throw new Error(`Location ${locationId} has no order-ahead menu; create one first`);
    const known = new Set(menuItems(menu).map((entry) => entry.item.id));
    const unknown = [...parsed.item_ids, ...parsed.trigger_item_ids].filter((itemId) => !known.has(itemId));
    if (unknown.length > 0) throw new Error(`Unknown menu items: ${unknown.join(', ')}`);
    const [upsell] = await withUpsellIds([parsed]);
    try {
      // Under the version it was read at, the list written is the stored list with the upsell appended.
      const append = OrderAheadMenu.at(locationId).update(
        { set: { upsells: [...menu.upsells, upsell!], updated_at: isoSeconds() }, add: { version: 1 } },
        versionIs(menu.version),
      );
      await db().send(new UpdateCommand(append.Update));
      return upsell!;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error('The menu kept changing; try again');
}

export interface MenuEntry {
  category: MenuCategory;
  item: MenuItem;
}

export function menuItems(menu: MenuRecord): MenuEntry[] {
  return menu.categories.flatMap((category) => category.items.map((item) => ({ category, item })));
}

export function findMenuItem(menu: MenuRecord, itemId: number): MenuEntry | undefined {
  return menuItems(menu).find((entry) => entry.item.id === itemId);
}

/** Whether an item can be ordered for an instant: in stock and inside its own and its category's windows. */
export function itemAvailableAt(menu: MenuRecord, entry: MenuEntry, instant: Date): boolean {
  return (
    entry.item.available &&
    withinWindows(entry.category.availability_windows, instant, menu.time_zone) &&
    withinWindows(entry.item.availability_windows, instant, menu.time_zone)
  );
}

export function optionGroupOf(item: MenuItem, optionId: number): { group: MenuOptionGroup; option: MenuOption } | undefined {
  for (const group of item.option_groups) {
    const option = group.options.find((candidate) => candidate.id === optionId);
    if (option) return { group, option };
  }
  return undefined;
}

/**
 * Charged prices of a group's selections: the `free_choices` most expensive selections cost nothing.
 * Returns, per option id, how many of its selections were free.
 */
export function freeQuantities(group: MenuOptionGroup, selections: { option: MenuOption; quantity: number }[]): Map<number, number> {
  const units = selections.flatMap((selection) => Array.from({ length: selection.quantity }, () => selection.option));
  units.sort((a, b) => b.price_amount - a.price_amount || a.id - b.id);
  const free = new Map<number, number>();
  for (const option of units.slice(0, group.free_choices)) free.set(option.id, (free.get(option.id) ?? 0) + 1);
  return free;
}

/**
 * Publishes a menu for an existing location at once, with no draft (the operators' `create-menu`, the bench and test
 * seeds): the same `menuPublication` as the management API's publish. A concurrent change of the menu or the
 * location makes it read both again and publish over them (the operator's file is the menu wanted).
 */
export async function createMenuForLocation(locationId: number, input: unknown): Promise<MenuRecord> {
  const content = menuInputSchema.parse(input);
  checkMenuSize(content);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const [location, existing] = await Promise.all([getLocation(locationId, { consistent: true }), OrderAheadMenu.at(locationId).get({ consistent: true })]);
    if (!location) throw new Error(`Location ${locationId} does not exist`);
    const publication = await menuPublication(location, content, existing);
    const outcome = await transactWrite(() => publication.items);
    if (outcome.committed) return publication.menu;
  }
  throw new Error('The menu kept changing; try again');
}

/** Refuses a menu larger than one stored item may safely hold (MAX_MENU_JSON_CHARS). */
export function checkMenuSize(content: MenuContent): void {
  const size = JSON.stringify(content).length;
  if (size > MAX_MENU_JSON_CHARS) throw new MenuTooLarge(size);
}

export class MenuTooLarge extends Error {
  constructor(readonly size: number) {
    super(`The menu is ${size} characters of JSON; a menu holds at most ${MAX_MENU_JSON_CHARS}.`);
  }
}

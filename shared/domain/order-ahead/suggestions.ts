/**
 * Suggested orders (GET /v15/order_ahead/orders/suggested): ready-to-send carts, the user's own past
 * carts and the carts most often completed at a location, each listed once, dropped when it no longer
 * fits the location's current menu, at most MAX_SUGGESTIONS.
 *
 * Storage (docs/data-model.md, "Order ahead"): when the provider accepts an order (fulfilment.ts), its
 * cart is remembered in two bounded items, each rewritten whole under a version condition:
 * - the user's recent carts (keys.userRecentCarts): the MAX_RECENT_CARTS most recently completed
 *   distinct carts, each with how often it was completed;
 * - the location's popular carts (keys.locationPopularCarts): the Space-Saving sketch of the
 *   location's most completed carts (MAX_POPULAR_CARTS counters; a new cart replaces the least counted
 *   one and inherits its count + 1), keyed by items and options only: nothing of another user's
 *   (instructions, address, order uuid) is kept in it or shown from it.
 * Remembering is best effort: a failure is logged and never fails the order.
 */
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure } from '#shared/db/client.ts';
import { itemIsNew, versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type StoredEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { log } from '#shared/log.ts';
import type { App } from '#shared/domain/identity/apps.ts';
import { distanceInMeters, Location, type Coordinates, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { appOf } from '#shared/domain/orders/user-orders.ts';
import { isoSeconds } from '#shared/time.ts';
import { findMenuItem, freeQuantities, OrderAheadMenu, optionGroupOf, type MenuOption, type MenuRecord } from './menu.ts';
import { menuUrl } from './menu-view.ts';
import type { OrderAheadRecord } from './orders.ts';

export const MAX_SUGGESTIONS = 25;
/** A user's distinct carts kept (most recently completed first); bounds the item and the menus one request reads. */
export const MAX_RECENT_CARTS = 40;
export const MAX_POPULAR_CARTS = 100;
/** An unhurried walk: 4.8 km/h. */
const WALKING_METERS_PER_MINUTE = 80;

export const SUGGESTION_TYPES = ['past', 'popular'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

interface CartLineOfSuggestion {
  id: number;
  quantity: number;
  option_ids: number[];
  special_instructions: string | null;
}

/** A cart as remembered: what a start needs to order it again, and where. */
interface RememberedCart {
  hash: string;
  /** Same items and options, whatever the instructions: how a past cart and a popular one are known to be the same. */
  items_hash: string;
  location_id: number;
  merchant_id: number;
  fulfillment_type: 'pickup' | 'delivery';
  delivery_address_id: number | null;
  special_instructions: string | null;
  lines: CartLineOfSuggestion[];
  total_amount: number;
  times_ordered: number;
  last_order_uuid: string | null;
  last_ordered_at: string;
}

/** A bounded list of remembered carts, rewritten whole under its version. */
interface CartListAttributes {
  carts: RememberedCart[];
  version: number;
  updated_at: string;
}

/** The user's most recently completed distinct carts. */
const RecentCarts = defineEntity<CartListAttributes>()({ entity: 'OrderAheadRecentCarts', key: keys.userRecentCarts });
/** The location's Space-Saving sketch of its most completed carts. */
const PopularCarts = defineEntity<CartListAttributes>()({ entity: 'OrderAheadPopularCarts', key: keys.locationPopularCarts });

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

function linesOf(order: OrderAheadRecord): CartLineOfSuggestion[] {
  return order.priced!.items.map((line) => ({
    id: line.id,
    quantity: line.quantity,
    option_ids: [...line.option_ids].sort((a, b) => a - b),
    special_instructions: line.special_instructions,
  }));
}

function itemsHash(locationId: number, lines: readonly CartLineOfSuggestion[]): string {
  const canonical = lines.map((line) => [line.id, line.quantity, line.option_ids]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return digest({ locationId, canonical });
}

function rememberedCart(order: OrderAheadRecord): RememberedCart {
  const priced = order.priced!;
  const lines = linesOf(order);
  const identity = {
    location_id: priced.location_id,
    fulfillment_type: priced.fulfillment_type,
    delivery_address_id: priced.delivery_address_id,
    special_instructions: priced.special_instructions,
    lines: [...lines].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
  return {
    hash: digest(identity),
    items_hash: itemsHash(priced.location_id, lines),
    location_id: priced.location_id,
    merchant_id: priced.merchant_id,
    fulfillment_type: priced.fulfillment_type,
    delivery_address_id: priced.delivery_address_id,
    special_instructions: priced.special_instructions,
    lines,
    // The order's price as validated, before credit and gift card value (tenders, not prices).
    total_amount: priced.total_amount + priced.discount_amount,
    times_ordered: 1,
    last_order_uuid: order.uuid,
    last_ordered_at: order.completion?.completed_at ?? isoSeconds(),
  };
}

/** Rewrites one bounded list item under its version (retried a few times when another completion got there first). */
async function rewriteList<Name extends string>(
  list: StoredEntity<Name, CartListAttributes>,
  change: (carts: RememberedCart[]) => RememberedCart[],
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const existing = await list.get({ consistent: true });
    const attributes = { carts: change(existing?.carts ?? []), version: (existing?.version ?? 0) + 1, updated_at: isoSeconds() };
    const write = list.put(attributes, existing ? versionIs(existing.version) : itemIsNew);
    try {
      await db().send(new PutCommand(write.Put));
      return;
    } catch (error) {
      if (!isConditionFailure(error) || attempt >= 5) throw error;
      await backoff(attempt, CONTENTION_BACKOFF);
    }
  }
}

function addRecent(carts: RememberedCart[], cart: RememberedCart): RememberedCart[] {
  const previous = carts.find((candidate) => candidate.hash === cart.hash);
  const merged = { ...cart, times_ordered: (previous?.times_ordered ?? 0) + 1 };
  return [merged, ...carts.filter((candidate) => candidate.hash !== cart.hash)].slice(0, MAX_RECENT_CARTS);
}

/** Space-Saving: count a known cart; otherwise take a free counter, or the least counted one's count + 1. */
function addPopular(carts: RememberedCart[], cart: RememberedCart): RememberedCart[] {
  const anonymous: RememberedCart = {
    ...cart,
    hash: cart.items_hash,
    fulfillment_type: 'pickup',
    delivery_address_id: null,
    special_instructions: null,
    lines: cart.lines.map((line) => ({ ...line, special_instructions: null })),
    last_order_uuid: null,
  };
  const known = carts.find((candidate) => candidate.hash === anonymous.hash);
  if (known)
    return carts.map((candidate) =>
      candidate === known ? { ...candidate, times_ordered: candidate.times_ordered + 1, last_ordered_at: anonymous.last_ordered_at } : candidate,
    );
  if (carts.length < MAX_POPULAR_CARTS) return [...carts, anonymous];
  const least = carts.reduce((min, candidate) => (candidate.times_ordered < min.times_ordered ? candidate : min));
  return carts.map((candidate) => (candidate === least ? { ...anonymous, times_ordered: least.times_ordered + 1 } : candidate));
}

/** Remembers a completed order's cart for the user's and the location's suggestions (best effort). */
export async function rememberCompletedCart(order: OrderAheadRecord): Promise<void> {
  const cart = rememberedCart(order);
  const results = await Promise.allSettled([
    rewriteList(RecentCarts.at(order.user_id), (carts) => addRecent(carts, cart)),
    rewriteList(PopularCarts.at(cart.location_id), (carts) => addPopular(carts, cart)),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') log('warn', 'order_ahead_cart_not_remembered', { order_uuid: order.uuid, error: (result.reason as Error).message });
  }
}

// ---------------------------------------------------------------------------------------------
// Listing

export interface SuggestionsQuery {
  locationId?: number;
  types: ReadonlySet<SuggestionType>;
  near?: Coordinates;
}

function selections(menu: MenuRecord, line: CartLineOfSuggestion) {
  const entry = findMenuItem(menu, line.id);
  if (!entry?.item.available) return undefined;
  const counts = new Map<number, number>();
  for (const optionId of line.option_ids) counts.set(optionId, (counts.get(optionId) ?? 0) + 1);
  const byGroup = new Map<number, { option: MenuOption; quantity: number }[]>();
  for (const [optionId, quantity] of counts) {
    const found = optionGroupOf(entry.item, optionId);
    if (!found?.option.available) return undefined;
    byGroup.set(found.group.id, [...(byGroup.get(found.group.id) ?? []), { option: found.option, quantity }]);
  }
  let options = 0;
  for (const group of entry.item.option_groups) {
    const chosen = byGroup.get(group.id) ?? [];
    const total = chosen.reduce((sum, selection) => sum + selection.quantity, 0);
    if (total < group.minimum_choices || (group.maximum_choices !== null && total > group.maximum_choices)) return undefined;
    const free = freeQuantities(group, chosen);
    options += chosen.reduce((sum, { option, quantity }) => sum + option.price_amount * (quantity - (free.get(option.id) ?? 0)), 0);
  }
  const allowed = entry.item.allows_special_instructions ?? menu.settings.allows_special_instructions;
  const limit = entry.item.special_instructions_character_limit ?? menu.settings.special_instructions_character_limit;
  return {
    name: entry.item.name,
    unitPrice: entry.item.price_amount,
    options,
    instructionsFit: (text: string | null) => text === null || (allowed && text.length <= limit),
  };
}

/** The cart's item names and its items' price on the current menu, or undefined when it no longer fits the menu. */
function onMenu(menu: MenuRecord, cart: RememberedCart): { description: string; itemsAmount: number } | undefined {
  const settings = menu.settings;
  const instructionsFit = (text: string | null) =>
    text === null || (settings.allows_special_instructions && text.length <= settings.special_instructions_character_limit);
  if (!instructionsFit(cart.special_instructions)) return undefined;
  const names: string[] = [];
  let itemsAmount = 0;
  for (const line of cart.lines) {
    const found = selections(menu, line);
    if (!found || !found.instructionsFit(line.special_instructions)) return undefined;
    names.push(found.name);
    itemsAmount += (found.unitPrice + found.options) * line.quantity;
  }
  return { description: names.join(', '), itemsAmount };
}

function visibleTo(app: App | undefined, merchantId: number): boolean {
  return app !== undefined && (app.global || app.merchant_ids.includes(merchantId));
}

export interface Suggestion {
  banner: SuggestionType;
  cart: RememberedCart;
  location: LocationItem;
  menu: MenuRecord;
  description: string;
  itemsAmount: number;
}

/**
 * The user's suggestions: past carts (most often, then most recently completed), then popular carts of
 * the location not already listed, each shown once and only while it fits the current menu.
 * Reads: the user's (and the location's) carts in one BatchGetItem, then every location and menu named in
 * one more.
 */
export async function suggestedOrders(user: { userId: number; appId: number }, query: SuggestionsQuery): Promise<Suggestion[]> {
  const wantsPopular = query.types.has('popular') && query.locationId !== undefined;
  const [app, [recentItem, popularItem]] = await Promise.all([
    appOf(user.appId),
    readItems([keys.userRecentCarts(user.userId), ...(wantsPopular ? [keys.locationPopularCarts(query.locationId!)] : [])], { consistent: false }),
  ]);
  const here = (cart: RememberedCart) => (query.locationId === undefined || cart.location_id === query.locationId) && visibleTo(app, cart.merchant_id);
  const mostOrdered = (a: RememberedCart, b: RememberedCart) => b.times_ordered - a.times_ordered || b.last_ordered_at.localeCompare(a.last_ordered_at);
  const past = query.types.has('past') ? (RecentCarts.from(recentItem)?.carts ?? []).filter(here).sort(mostOrdered) : [];
  const pastItems = new Set(past.map((cart) => cart.items_hash));
  const popular = (PopularCarts.from(popularItem)?.carts ?? []).filter((cart) => here(cart) && !pastItems.has(cart.items_hash)).sort(mostOrdered);
  const candidates = [...past.map((cart) => ({ banner: 'past' as const, cart })), ...popular.map((cart) => ({ banner: 'popular' as const, cart }))];

  const locationIds = [...new Set(candidates.map(({ cart }) => cart.location_id))];
  const read = await readItems(
    locationIds.flatMap((locationId) => [keys.location(locationId), keys.orderAheadMenu(locationId)]),
    { consistent: false },
  );
  const places = new Map(
    locationIds.map((locationId, index) => [locationId, { location: Location.from(read[index * 2]), menu: OrderAheadMenu.from(read[index * 2 + 1]) }]),
  );

  const suggestions: Suggestion[] = [];
  for (const { banner, cart } of candidates) {
    const { location, menu } = places.get(cart.location_id)!;
    if (!location || !menu || !location.shown || !location.fulfillment_types.includes(cart.fulfillment_type)) continue;
    const fit = onMenu(menu, cart);
    if (!fit) continue;
    suggestions.push({ banner, cart, location, menu, ...fit });
    if (suggestions.length >= MAX_SUGGESTIONS) break;
  }
  return suggestions;
}

/** One suggested order as the iOS SDK reads it (`desired_ready_time`, not the fixture's `wanted_at`). */
export function serializeSuggestion(suggestion: Suggestion, baseUrl: string, near?: Coordinates) {
  const { cart, location, banner } = suggestion;
  const own = banner === 'past';
  // A popular cart carries nobody's instructions or address: pickup where offered, else delivery to an address the user picks.
  const fulfillmentType = own ? cart.fulfillment_type : location.fulfillment_types.includes('pickup') ? 'pickup' : 'delivery';
  return {
    order: {
      banner,
      conveyance: { fulfillment_type: fulfillmentType, desired_ready_time: null, delivery_address_id: own ? cart.delivery_address_id : null },
      created_at: cart.last_ordered_at,
      description: suggestion.description,
      items: cart.lines.map((line) => ({
        item: { id: line.id, quantity: line.quantity, special_instructions: own ? line.special_instructions : null, option_ids: line.option_ids },
      })),
      location_id: cart.location_id,
      menu_url: menuUrl(baseUrl, suggestion.menu.menu_id),
      merchant_name: location.merchant_name,
      special_instructions: own ? cart.special_instructions : null,
      total_amount: own ? cart.total_amount : suggestion.itemsAmount,
      uuid: own && cart.last_order_uuid ? cart.last_order_uuid : cart.hash,
      ...(near
        ? {
            walking_time_minutes: Math.max(
              1,
              Math.ceil(distanceInMeters({ lat: location.latitude, lng: location.longitude }, near) / WALKING_METERS_PER_MINUTE),
            ),
          }
        : {}),
    },
  };
}

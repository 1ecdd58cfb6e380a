/**
 * Upsell eligibility. A merchant defines upsells on a location's menu: the items to suggest, the cart
 * items that trigger it (none: any cart), a customer segment and local-time windows. The first eligible
 * upsell in menu order wins; items already in the cart or not orderable now are not suggested, and an
 * upsell left with nothing to suggest is not eligible.
 */
import { getUser } from '#shared/domain/users.ts';
import { withinWindows } from './clock.ts';
import { findMenuItem, itemAvailableAt, type CustomerSegment, type MenuRecord, type Upsell } from './menu.ts';

export interface UpsellCandidate {
  upsell: Upsell;
  itemIds: number[];
}

export function inSegment(segment: CustomerSegment, ordersCount: number): boolean {
  switch (segment.kind) {
    case 'everyone':
      return true;
    case 'new_customers':
      return ordersCount === 0;
    case 'min_orders':
      return ordersCount >= segment.min_orders;
  }
}

export function eligibleUpsell(
  menu: MenuRecord,
  input: { cartItemIds: readonly number[]; ordersCount: number; exclude?: readonly number[]; now?: Date },
): UpsellCandidate | undefined {
  const now = input.now ?? new Date();
  const inCart = new Set(input.cartItemIds);
  const excluded = new Set(input.exclude ?? []);
  for (const upsell of menu.upsells) {
    if (excluded.has(upsell.id)) continue;
    if (upsell.trigger_item_ids.length > 0 && !upsell.trigger_item_ids.some((itemId) => inCart.has(itemId))) continue;
    if (!inSegment(upsell.segment, input.ordersCount)) continue;
    if (!withinWindows(upsell.time_windows, now, menu.time_zone)) continue;
    const itemIds = upsell.item_ids.filter((itemId) => {
      if (inCart.has(itemId)) return false;
      const entry = findMenuItem(menu, itemId);
      return entry !== undefined && itemAvailableAt(menu, entry, now);
    });
    if (itemIds.length > 0) return { upsell, itemIds };
  }
  return undefined;
}

/**
 * How many orders the user has placed, for segments. Read from the user's `orders_count`, which the
 * money path's order completion keeps.
 */
export async function ordersCountOf(userId: number): Promise<number> {
  const user = await getUser(userId);
  return Number(user?.orders_count ?? 0);
}

/** `{"upsell": {...}}` of POST /v15/upsells: item details are looked up by clients in the menu. */
export function serializeUpsellSuggestion(candidate: UpsellCandidate) {
  return {
    upsell: {
      id: candidate.upsell.id,
      prompt: candidate.upsell.prompt,
      show_prices: candidate.upsell.show_prices,
      items: candidate.itemIds.map((itemId) => ({ item: { id: itemId } })),
    },
  };
}

/** The upsell object of the poll response: item details included (price_amount is a string, as documented). */
export function pollUpsell(menu: MenuRecord, candidate: UpsellCandidate) {
  return {
    id: candidate.upsell.id,
    prompt: candidate.upsell.prompt,
    show_prices: candidate.upsell.show_prices,
    items: candidate.itemIds.map((itemId) => {
      const item = findMenuItem(menu, itemId)!.item;
      return { item: { description: item.description, id: item.id, image_url: item.image_url ?? '', name: item.name, price_amount: String(item.price_amount) } };
    }),
  };
}
export type PollUpsell = ReturnType<typeof pollUpsell>;

/**
 * Upsell eligibility. A merchant defines upsells on a location's menu: the items to suggest, the cart
 * items that trigger it (none: any cart), a customer segment and local-time windows. The first eligible
 * upsell in menu order wins; items already in the cart or not orderable now are not suggested, and an
 * upsell left with nothing to suggest is not eligible. Segments count the user's completed orders at
 * the menu's merchant (`new_customers`: none yet; `min_orders`: at least N).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { withinWindows } from '#shared/time.ts';
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

/** The most orders any segment asks about (a merchant's "regulars" threshold is small). */
const MAX_SEGMENT_ORDERS = 1000;

/**
 * How many completed orders the user has at the merchant, counted up to `atLeast` (segments only
 * ask "at least N"): a COUNT query of the user's orders (gsi1) filtered on the merchant, stopping
 * as soon as the answer is known.
 */
export async function ordersAtMerchant(userId: number, merchantId: number, atLeast: number): Promise<number> {
  const wanted = Math.min(atLeast, MAX_SEGMENT_ORDERS);
  if (wanted <= 0) return 0;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: 'merchant_id = :merchant',
        ExpressionAttributeValues: { ':pk': keys.userOrders(userId).gsi1pk, ':merchant': merchantId },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey && count < wanted);
  return count;
}

/** The orders count the menu's segments need to be decided (at most the largest threshold they name). */
export async function ordersCountForSegments(menu: MenuRecord, userId: number): Promise<number> {
  const thresholds = menu.upsells.map((upsell) =>
    upsell.segment.kind === 'min_orders' ? upsell.segment.min_orders : upsell.segment.kind === 'new_customers' ? 1 : 0,
  );
  return ordersAtMerchant(userId, menu.merchant_id, Math.max(0, ...thresholds));
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
      return {
        item: { description: item.description, id: item.id, image_url: item.image_url ?? '', name: item.name, price_amount: String(item.price_amount) },
      };
    }),
  };
}
export type PollUpsell = ReturnType<typeof pollUpsell>;

/** The client shapes of a completed order: the POS's, the merchant's (refund) and the user's (list, detail). */
import type { OrderItem } from '#shared/schemas/money.ts';
import type { OrderRecord } from './record.ts';

/** The POS-facing completed order. */
export function serializeCompletedOrder(order: OrderRecord) {
  return {
    order: {
      gift_card_total_amount: order.gift_card_total_amount,
      gift_card_tip_amount: order.gift_card_tip_amount,
      spend_amount: order.spend_amount,
      tip_amount: order.tip_amount,
      total_amount: order.spend_amount + order.tip_amount,
      uuid: order.uuid,
    },
  };
}

/** The merchant-facing order (refund response). */
export function serializeMerchantOrder(order: OrderRecord) {
  return {
    order: {
      created_at: order.created_at,
      merchant_funded_credit_amount: order.applied_discount_amount,
      earn_amount: order.credit_earned_amount,
      uuid: order.uuid,
      loyalty_id: order.user_id,
      spend_amount: order.spend_amount,
      refunded_at: order.refunded_at,
      tip_amount: order.tip_amount,
      total_amount: order.spend_amount + order.tip_amount,
      location_id: order.location_id,
      user_display_name: order.user_display_name,
    },
  };
}

/** All credit that funded the order: merchant-funded discount and gift card value. */
function creditApplied(order: Pick<OrderRecord, 'applied_discount_amount' | 'gift_card_total_amount'>): number {
  return order.applied_discount_amount + order.gift_card_total_amount;
}

/** What the user-oriented list columns read of an order: the one list that projects a page of orders (user-orders.ts) reads only these. */
export const USER_ORDER_LIST_ATTRIBUTES = [
  'applied_discount_amount',
  'charged_amount',
  'created_at',
  'credit_earned_amount',
  'gift_card_tip_amount',
  'gift_card_total_amount',
  'identifier_from_merchant',
  'location_extended_address',
  'location_id',
  'location_locality',
  'location_postal_code',
  'location_region',
  'location_street_address',
  'merchant_id',
  'merchant_name',
  'refunded_at',
  'spend_amount',
  'tip_amount',
  'transacted_at',
  'uuid',
] as const satisfies readonly (keyof OrderRecord)[];

export type UserOrderListRecord = Pick<OrderRecord, (typeof USER_ORDER_LIST_ATTRIBUTES)[number]>;

/** The user-oriented order's list columns. */
export function userOrderListColumns(order: UserOrderListRecord) {
  const giftCardSpend = order.gift_card_total_amount - order.gift_card_tip_amount;
  const spend = order.spend_amount - order.applied_discount_amount - giftCardSpend;
  return {
    balance_amount: order.charged_amount,
    bundle_closed_at: order.transacted_at,
    bundle_descriptor: order.merchant_name,
    contribution_amount: 0,
    contribution_target_name: null,
    created_at: order.created_at,
    credit_applied_amount: creditApplied(order),
    credit_earned_amount: order.credit_earned_amount,
    identifier_from_merchant: order.identifier_from_merchant,
    location_extended_address: order.location_extended_address,
    location_id: order.location_id,
    location_locality: order.location_locality,
    location_postal_code: order.location_postal_code,
    location_region: order.location_region,
    location_street_address: order.location_street_address,
    merchant_id: order.merchant_id,
    merchant_name: order.merchant_name,
    refunded_at: order.refunded_at,
    spend_amount: spend,
    tip_amount: order.tip_amount,
    total_amount: order.spend_amount + order.tip_amount - creditApplied(order),
    transacted_at: order.transacted_at,
    uuid: order.uuid,
  };
}

export function detailItem(item: OrderItem): { item: Record<string, unknown> } {
  return {
    item: {
      category: item.category ?? null,
      description: item.description ?? '',
      name: item.name,
      quantity: item.quantity ?? 1,
      sku: item.sku ?? null,
      upc: item.upc ?? null,
      charged_price_amount: item.charged_price_amount,
      standard_price_amount: item.standard_price_amount ?? item.charged_price_amount,
      children: (item.children ?? []).map(detailItem),
    },
  };
}

/** Ids at and above this (2^30) are derived for orders stored without one; drawn ids stay below it (docs/data-model.md). */
const DERIVED_ORDER_ID_BASE = 2 ** 30;

/**
 * The order's integer `id`, below 2^31 (the C# SDK reads ids as 32-bit ints, issue 34.11): the one stored
 * with it; an order stored before ids were drawn gets a stable one from its uuid's first 30 bits, above
 * every drawn id (the `order` counter's 16 shards reach 2^30 only after about a billion orders).
 */
export function orderId(order: Pick<OrderRecord, 'uuid' | 'integer_id'>): number {
  if (typeof order.integer_id === 'number') return order.integer_id;
  const leading = Number.parseInt(order.uuid.replace(/[^0-9a-f]/gi, '').slice(0, 8) || '0', 16);
  return DERIVED_ORDER_ID_BASE + (leading >>> 2);
}

/** The user-oriented order's detail columns. */
export function serializeUserOrderDetail(order: OrderRecord) {
  return {
    order: {
      id: orderId(order),
      ...userOrderListColumns(order),
      location_latitude: order.location_latitude,
      location_longitude: order.location_longitude,
      location_name: order.location_name ?? order.location_street_address,
      tax_amount: order.tax_amount === 0 ? null : order.tax_amount,
      items: order.items.map(detailItem),
    },
  };
}

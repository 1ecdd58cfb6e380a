/**
 * A completed order as stored (`keys.order(uuid)`; gsi1 = the user's orders, gsi2 = its location's, by creation time): the one
 * record every order path writes and every view (views.ts) reads. `newOrderRecord` is the one place an
 * order's terms — the request's own fields, or the priced order-ahead order's — become stored fields.
 */
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import type { LocationItem } from '#shared/domain/merchants/locations.ts';
import type { MerchantItem } from '#shared/domain/merchants/merchants.ts';
import type { CompletedOrderRequest, OrderFee, OrderItem } from '#shared/schemas/money.ts';
import type { Split } from './payment-split.ts';

export type OrderSource = 'in_store' | 'order_ahead';

/**
 * What the customer is charged for, named as the POS sends it (POST /v15/completed_orders). Order-ahead
 * completion states the same terms from its priced order.
 */
export type OrderTerms = Pick<
  CompletedOrderRequest,
  | 'spend_amount'
  | 'tax_amount'
  | 'applied_discount_amount'
  | 'exemption_amount'
  | 'partial_authorization_allowed'
  | 'discount_only'
  | 'items'
  | 'fees'
  | 'identifier_from_merchant'
  | 'cashier'
  | 'register'
  | 'receipt_message_html'
> & {
  /** The tip to charge: the POS's, else the scanned QR code's (proposals.ts), else 0. */
  tip_amount: number;
};

export interface OrderRecord {
  uuid: string;
  /**
   * The order's integer `id` in answers (the merchant-facing and user order details), below 2^31 for the C# SDK's
   * 32-bit ids (issue 34.11): drawn from the sharded `order` counter when the order is made. Absent on orders
   * made before it (views.ts `orderId` derives theirs).
   */
  integer_id?: number;
  source: OrderSource;
  source_uuid: string;
  state: 'completed' | 'refunded';
  merchant_id: number;
  merchant_name: string;
  location_id: number;
  location_name: string | null;
  location_street_address: string;
  location_extended_address: string | null;
  location_locality: string;
  location_region: string;
  location_postal_code: string;
  location_latitude: number | null;
  location_longitude: number | null;
  user_id: number;
  app_id: number;
  user_display_name: string;
  requested_spend_amount: number;
  requested_tip_amount: number;
  /** Approved spend excluding tip (discount + gift card + card). */
  spend_amount: number;
  /** Approved tip (gift card + card). */
  tip_amount: number;
  tax_amount: number;
  exemption_amount: number;
  applied_discount_amount: number;
  gift_card_total_amount: number;
  gift_card_tip_amount: number;
  /** Charged to the card (balance_amount). */
  charged_amount: number;
  charge_id: string | null;
  /** The calendar month (UTC, `YYYY-MM`) the charge counts in against the card charge limits (charge-limits.ts); absent without a charge. */
  charge_month?: string;
  credit_earned_amount: number;
  credit_reversed_amount: number;
  /** Detached refund credit a refund of this order took back, as the refunded charge no longer covered it (refunds.ts). */
  detached_refund_reversed_amount?: number;
  items: OrderItem[];
  fees: OrderFee[];
  identifier_from_merchant: string | null;
  cashier: string | null;
  register: string | null;
  receipt_message_html: string | null;
  discount_only: boolean;
  partial_authorization_allowed: boolean;
  created_at: string;
  transacted_at: string;
  refunded_at: string | null;
  refund_id: string | null;
}

/** An order as stored: its record, its places in the user's (gsi1) and its location's (gsi2) orders, and what a refund marks. */
interface StoredOrderAttributes extends OrderRecord {
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  updated_at: string;
  /** The refund request that refunded it (refunds.ts: a refund whose answer was lost knows it committed). */
  refund_token?: string;
  /** The staff member who approved the refund (their manager code or own token); null: the shared code or none. */
  refund_approved_by_staff_id?: number | null;
}

export const Order = defineEntity<StoredOrderAttributes>()({ entity: 'Order', key: keys.order });
export type StoredOrder = EntityItem<typeof Order>;

/** The orders among items a Query of an orders index read. */
export function ordersFrom(items: readonly StoredItem[] | undefined): StoredOrder[] {
  return (items ?? []).flatMap((item) => (item.entity === Order.entity ? (Order.from(item) ?? []) : []));
}

/** "First L." as merchants see a customer. */
export function displayName(user: { first_name?: unknown; last_name?: unknown } | undefined): string {
  const first = typeof user?.first_name === 'string' ? user.first_name.trim() : '';
  const initial = typeof user?.last_name === 'string' ? user.last_name.trim().charAt(0) : '';
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}

/**
 * The order a settlement records: its terms as approved by the split and the charge, with the
 * merchant's and location's columns copied in (a user's order list is one index query).
 * `credit_earned_amount` starts at 0: loyalty's effects, which see this record, set it.
 */
export function newOrderRecord(input: {
  uuid: string;
  source: OrderSource;
  sourceUuid: string;
  merchant: MerchantItem;
  location: LocationItem;
  userId: number;
  appId: number;
  userDisplayName: string;
  terms: OrderTerms;
  split: Split;
  chargeId: string | null;
  now: string;
  integerId: number;
}): OrderRecord {
  const { terms, split, location } = input;
  return {
    uuid: input.uuid,
    integer_id: input.integerId,
    source: input.source,
    source_uuid: input.sourceUuid,
    state: 'completed',
    merchant_id: input.merchant.merchant_id,
    merchant_name: input.merchant.name,
    location_id: location.location_id,
    location_name: location.name ?? null,
    location_street_address: location.street_address ?? '',
    location_extended_address: location.extended_address ? location.extended_address : null,
    location_locality: location.locality ?? '',
    location_region: location.region ?? '',
    location_postal_code: location.postal_code ?? '',
    location_latitude: location.latitude ?? null,
    location_longitude: location.longitude ?? null,
    user_id: input.userId,
    app_id: input.appId,
    user_display_name: input.userDisplayName,
    requested_spend_amount: terms.spend_amount,
    requested_tip_amount: terms.tip_amount,
    spend_amount: split.approvedSpend,
    tip_amount: split.approvedTip,
    tax_amount: terms.tax_amount,
    exemption_amount: terms.exemption_amount,
    applied_discount_amount: split.appliedDiscount,
    gift_card_total_amount: split.giftCardSpend + split.giftCardTip,
    gift_card_tip_amount: split.giftCardTip,
    charged_amount: split.charged,
    charge_id: input.chargeId,
    credit_earned_amount: 0,
    credit_reversed_amount: 0,
    items: terms.items,
    fees: terms.fees,
    identifier_from_merchant: terms.identifier_from_merchant ?? null,
    cashier: terms.cashier ?? null,
    register: terms.register ?? null,
    receipt_message_html: terms.receipt_message_html ?? null,
    discount_only: terms.discount_only,
    partial_authorization_allowed: terms.partial_authorization_allowed,
    created_at: input.now,
    transacted_at: input.now,
    refunded_at: null,
    refund_id: null,
  };
}

/** The Put of a new order, in the user's orders index (gsi1) and its location's (gsi2). */
export function putOrderItem(order: OrderRecord): TransactItem {
  // Millisecond time in the index keys keeps newest-first exact for orders within one second.
  const indexedAt = new Date().toISOString();
  return Order.at(order.uuid).putNew({
    ...keys.userOrdersIndex(order.user_id, indexedAt, order.uuid),
    ...keys.locationOrdersIndex(order.location_id, indexedAt, order.uuid),
    ...order,
    updated_at: order.created_at,
  });
}

export async function getOrder(uuid: string): Promise<StoredOrder | undefined> {
  return Order.at(uuid).get({ consistent: true });
}

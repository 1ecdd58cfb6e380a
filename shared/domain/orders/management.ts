/**
 * The merchant's orders through the management API (docs/merchant-api.md, "Orders"): a page of one location's
 * orders, newest first, narrowed to a UTC day and a state; one order in detail, with its refund and who approved
 * it. Orders are indexed per location by creation time (gsi2): every read is a Query of one location's partition,
 * never a scan. Refunds go through the POS's own refund and detached refund (refunds.ts, detached-refunds.ts).
 */
import { keys } from '#shared/db/keys.ts';
import { merchantHasNo, unprocessable } from '#shared/errors.ts';
import { getLocation } from '#shared/domain/merchants/locations.ts';
import { merchantOrderV15Columns, ORDER_NOT_FOUND } from './merchant-orders.ts';
import { pageOfOrders, type OrdersIndexRead, type PagePosition, type PositionedOrder } from './order-pages.ts';
import { getOrder, type StoredOrder } from './record.ts';
import { serializeMerchantOrder } from './views.ts';

/** Orders per page of the management list. */
export const MANAGED_ORDERS_PAGE_SIZE = 50;

/** The list of a location the merchant does not have (another merchant's: the same answer). */
export const LOCATION_NOT_FOUND = () => merchantHasNo('location', 'location');

/** The list's filters (shared/schemas/orders-management.ts). */
export interface OrderFilters {
  location_id: number;
  day?: string;
  state?: StoredOrder['state'];
}

/**
 * A page of the location's orders, newest first. `day` narrows the Query to that day's sort keys; `state` is no
 * key, so it filters only within a day (one day's orders bound the read): without a day it is refused, 422.
 * Another merchant's location is the same 404 as an unknown one.
 */
export async function listManagedOrders(merchantId: number, filters: OrderFilters, from: PagePosition): Promise<PositionedOrder<StoredOrder>[]> {
  if (filters.state !== undefined && filters.day === undefined) {
    throw unprocessable('request', 'day', 'is required with state (a state filters the orders of one day)', 'missing');
  }
  if ((await getLocation(filters.location_id))?.merchant_id !== merchantId) throw LOCATION_NOT_FOUND();
  const { gsi2pk, skPrefix } =
    filters.day === undefined ? keys.locationOrders(filters.location_id) : keys.locationOrdersOnDay(filters.location_id, filters.day);
  const read: OrdersIndexRead = {
    index: 'gsi2',
    partition: { pk: gsi2pk, skPrefix },
    maxLimit: 1000,
    shows: filters.state === undefined ? undefined : (order) => order.state === filters.state,
    // Within a day the page resumes after the cursor's order by its key (the day's prefix stays the Query's bound).
    resumeAfter: filters.day === undefined ? undefined : (cursor) => ({ ...keys.order(keys.orderUuidOfSortKey(cursor)), gsi2pk, gsi2sk: cursor }),
  };
  if (from.cursor !== undefined && !from.cursor.startsWith(read.partition.skPrefix)) {
    throw unprocessable('request', 'cursor', 'is not a position in this list', 'invalid');
  }
  return pageOfOrders(read, from, MANAGED_ORDERS_PAGE_SIZE);
}

/** Whether a decoded paging cursor is an order's position in a location's orders (the only cursor this list hands out). */
export function isManagedOrdersCursor(position: string): boolean {
  return keys.isUserOrdersSortKey(position);
}

/** An order of the list: what a console's table shows. */
export function managedOrderRow(order: StoredOrder) {
  return { ...serializeMerchantOrder(order).order, state: order.state };
}

/** One order of the merchant; another merchant's order is the same 404 as an unknown uuid (nothing tells them apart). */
export async function getManagedOrder(merchantId: number, uuid: string): Promise<StoredOrder> {
  const order = await getOrder(uuid);
  if (!order || order.merchant_id !== merchantId) throw ORDER_NOT_FOUND();
  return order;
}

/**
 * The order in detail: the POS's v15 columns, what paid for it (card, gift card, the merchant's credit) and its
 * refund, with the staff member who approved it (null: the shared manager code, or none required).
 */
export function managedOrderDetail(order: StoredOrder) {
  return {
    ...merchantOrderV15Columns(order),
    state: order.state,
    location_name: order.location_name,
    charged_amount: order.charged_amount,
    gift_card_total_amount: order.gift_card_total_amount,
    gift_card_tip_amount: order.gift_card_tip_amount,
    applied_discount_amount: order.applied_discount_amount,
    refund:
      order.state === 'refunded'
        ? {
            approved_by_staff_id: order.refund_approved_by_staff_id ?? null,
            credit_reversed_amount: order.credit_reversed_amount,
            detached_refund_reversed_amount: order.detached_refund_reversed_amount ?? 0,
          }
        : null,
  };
}

/**
 * Orders as the merchant sees them (docs/pos.md): one order by uuid (GET /v15|v14/merchants/:merchant_id/orders/:uuid)
 * and a page of a location's orders, newest first (GET /v14/locations/:location_id/orders, gsi2).
 * The token names the merchant; a path naming another merchant or another merchant's location is 401.
 */
import { keys } from '#shared/db/keys.ts';
import { errorDetail, notFound, unauthorized } from '#shared/errors.ts';
import { getLocation } from '#shared/domain/merchants/locations.ts';
import { requireOwnMerchant } from '#shared/domain/merchants/location-views.ts';
import { pageOfOrders, type PagePosition, type PositionedOrder } from './order-pages.ts';
import { getOrder, type OrderRecord } from './record.ts';
import { detailItem, orderId, serializeMerchantOrder, userOrderListColumns } from './views.ts';

/** Orders per page of a location's orders. */
export const LOCATION_ORDERS_PAGE_SIZE = 10;

/** The documented 404 of an unknown order (LevelUp's v14 docs). */
export const ORDER_NOT_FOUND = () => notFound(errorDetail('order', 'id', 'Order not found.'));
const NOT_THIS_LOCATION = () => unauthorized("Not authorized to view this location's orders.", 'location', 'merchant_token');

/**
 * One order of the token's merchant. A path naming another merchant: 404 when no such merchant exists,
 * else 401 (the contract's rule for a merchant token not tied to the merchant concerned). The merchant's
 * own path with another merchant's order uuid is the same 404 as an unknown uuid: nothing tells them apart.
 */
export async function getMerchantOrder(tokenMerchantId: number, pathMerchantId: number, uuid: string): Promise<OrderRecord> {
  await requireOwnMerchant(tokenMerchantId, pathMerchantId);
  const order = await getOrder(uuid);
  if (!order || order.merchant_id !== tokenMerchantId) throw ORDER_NOT_FOUND();
  return order;
}

/** Whether a decoded paging cursor is an order's position in a location's orders (the only cursor this list hands out). */
export function isLocationOrdersCursor(position: string): boolean {
  return keys.isUserOrdersSortKey(position);
}

/**
 * One page of a location's orders, newest first. `cursor` (from a previous page's Link) resumes below that
 * order with one bounded Query however deep the page; without it, `page` (1-based, as the C# SDK builds
 * `?page=N` itself) skips whole pages from the newest (the handler bounds how deep: shared/http/paging.ts).
 */
export async function listLocationOrders(
  merchantId: number,
  locationId: number,
  position: PagePosition,
  pageSize = LOCATION_ORDERS_PAGE_SIZE,
): Promise<PositionedOrder<OrderRecord>[]> {
  if ((await getLocation(locationId))?.merchant_id !== merchantId) throw NOT_THIS_LOCATION();
  const partition = keys.locationOrders(locationId);
  return pageOfOrders({ index: 'gsi2', partition: { pk: partition.gsi2pk, skPrefix: partition.skPrefix }, maxLimit: 1000 }, position, pageSize);
}

// ---------------------------------------------------------------------------------------------
// Views

/** What a refund leaves on the order for a POS: refunds here are the merchant's (its POS, or its ordering provider rejecting). */
function refundSource(order: OrderRecord): 'merchant' | null {
  return order.refunded_at ? 'merchant' : null;
}

/** The v14 merchant-facing order (GET /v14/merchants/:merchant_id/orders/:uuid). */
export function merchantOrderV14Columns(order: OrderRecord) {
  return {
    ...serializeMerchantOrder(order).order,
    transacted_at: order.transacted_at,
  };
}

/**
 * The v15 merchant-facing order: v14's columns, the POS's own fields and the items, plus the amounts the
 * C# SDK maps into its order model when present (merchant, tax, exemption, requested and charged amounts).
 */
export function merchantOrderV15Columns(order: OrderRecord) {
  const user = userOrderListColumns(order);
  return {
    ...merchantOrderV14Columns(order),
    id: orderId(order),
    cashier: order.cashier,
    identifier_from_merchant: order.identifier_from_merchant,
    register: order.register,
    merchant_id: order.merchant_id,
    merchant_name: order.merchant_name,
    balance_amount: user.balance_amount,
    credit_applied_amount: user.credit_applied_amount,
    credit_earned_amount: user.credit_earned_amount,
    exemption_amount: order.exemption_amount,
    tax_amount: order.tax_amount,
    requested_spend_amount: order.requested_spend_amount,
    requested_tip_amount: order.requested_tip_amount,
    requested_total_amount: order.requested_spend_amount + order.requested_tip_amount,
    items: order.items.map(detailItem),
  };
}

/** One order of GET /v14/locations/:location_id/orders: the refund response's columns plus refund_source. */
export function locationOrderColumns(order: OrderRecord) {
  return { ...serializeMerchantOrder(order).order, refund_source: refundSource(order) };
}

/**
 * In-store orders: a POS proposes an order (learning the discount the customer can apply), then
 * completes it through checkout.ts; users list and read their orders.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { newUuid } from '#shared/db/ids.ts';
import { readItems } from '#shared/db/reads.ts';
import { createItem } from '#shared/db/transactions.ts';
import { keys } from '#shared/db/keys.ts';
import { notFound, unauthorized, unprocessable } from '#shared/errors.ts';
import { getApp, type App } from '#shared/domain/apps.ts';
import { availableDiscount, getOrder, settleOrder, type OrderRecord, type SettleOrderInput } from '#shared/domain/checkout.ts';
import { creditAccountKey } from '#shared/domain/ledger.ts';
import type { LocationItem } from '#shared/domain/locations.ts';
import type { MerchantItem } from '#shared/domain/merchants.ts';
import type { OrderItemInput } from '#shared/domain/order-effects.ts';
import { isoSeconds } from '#shared/time.ts';

export const PROPOSED = 'proposed';
export const COMPLETED = 'completed';
export const MAX_IDENTIFIER_FROM_MERCHANT = 10;
export const MAX_RECEIPT_MESSAGE_HTML = 1000;
/** Orders per page of GET /v15/apps/orders. */
export const ORDERS_PAGE_SIZE = 10;

const LOCATION_NOT_FOUND = () => unprocessable('order', 'location_id', "Location can't be blank", 'not_found');
const USER_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this user.', 'order', 'user_token');
const MERCHANT_NOT_AUTHORIZED = () => unauthorized('Not authorized to create orders for this merchant.', 'order', 'merchant_token');

export interface ProposedOrderInput {
  merchantId: number;
  appId: number;
  locationId: number;
  paymentTokenData: string;
  spendAmount: number;
  taxAmount: number;
  exemptionAmount: number;
  partialAuthorizationAllowed: boolean;
  discountOnly: boolean;
  items: OrderItemInput[];
  cashier?: string | null;
  register?: string | null;
  identifierFromMerchant?: string | null;
  receiptMessageHtml?: string | null;
}

export interface ProposedOrderItem {
  uuid: string;
  state: string;
  merchant_id: number;
  app_id: number;
  location_id: number;
  user_id: number;
  spend_amount: number;
  tax_amount: number;
  exemption_amount: number;
  discount_amount: number;
  partial_authorization_allowed: boolean;
  discount_only: boolean;
  items: OrderItemInput[];
  cashier: string | null;
  register: string | null;
  identifier_from_merchant: string | null;
  /**
   * The user's promoted card when the order was proposed: completion reads that card in the same batch
   * as the user item and the balances, and reads the card again only if the user promoted another since.
   */
  promoted_card_id?: number | null;
  completed_order_uuid?: string;
  created_at: string;
  updated_at: string;
}

const ALLOWED_TAGS = new Set(['a', 'br', 'p', 'strong']);

/** receipt_message_html: at most 1000 characters, only a, br, p and strong tags (a with an http(s)/mailto href only). */
export function validateReceiptMessageHtml(html: string | null | undefined, object = 'order'): void {
  if (html === null || html === undefined) return;
  if (html.length > MAX_RECEIPT_MESSAGE_HTML) {
    throw unprocessable(object, 'receipt_message_html', `Receipt message is too long (maximum is ${MAX_RECEIPT_MESSAGE_HTML} characters)`, 'too_long');
  }
  const invalid = () => unprocessable(object, 'receipt_message_html', 'Receipt message may only use the a, br, p and strong tags', 'invalid');
  if (/<!|<\?/.test(html)) throw invalid();
  for (const match of html.matchAll(/<\/?\s*([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const tag = match[1]!.toLowerCase();
    const attributes = match[2]!.trim().replace(/\/$/, '').trim();
    if (!ALLOWED_TAGS.has(tag)) throw invalid();
    if (attributes === '') continue;
    if (tag !== 'a' || !/^href\s*=\s*("(https?:|mailto:)[^"]*"|'(https?:|mailto:)[^']*')$/i.test(attributes)) throw invalid();
  }
  // A '<' that does not open one of the tags above (e.g. `<script` without '>') is not allowed either.
  if ((html.match(/</g) ?? []).length !== [...html.matchAll(/<\/?\s*[a-zA-Z][a-zA-Z0-9-]*[^>]*>/g)].length) throw invalid();
}

export function validateIdentifierFromMerchant(identifier: string | null | undefined, object = 'order'): void {
  if (identifier && identifier.length > MAX_IDENTIFIER_FROM_MERCHANT) {
    throw unprocessable(object, 'identifier_from_merchant', `Identifier from merchant is too long (maximum is ${MAX_IDENTIFIER_FROM_MERCHANT} characters)`, 'too_long');
  }
}

/** Creates a proposed order and tells the POS the merchant-funded credit the customer can apply. */
export async function proposeOrder(input: ProposedOrderInput): Promise<ProposedOrderItem> {
  validateIdentifierFromMerchant(input.identifierFromMerchant);
  validateReceiptMessageHtml(input.receiptMessageHtml);
  // Location and QR code are independent: one BatchGetItem. The QR code names the user, so the credit
  // balance (and the user's promoted card, kept on the proposed order for completion) is a second read.
  const [location, paymentToken] = await readItems([keys.location(input.locationId), keys.paymentToken(input.paymentTokenData)], { consistent: true });
  if (location?.merchant_id !== input.merchantId) throw LOCATION_NOT_FOUND();
  const userId = typeof paymentToken?.user_id === 'number' && input.paymentTokenData ? paymentToken.user_id : undefined;
  if (userId === undefined) throw USER_NOT_AUTHORIZED();
  const [creditItem, user] = await readItems([keys.balance(creditAccountKey(userId, input.merchantId)), keys.user(userId)], { consistent: true });
  const credit = { balance: Number(creditItem?.balance ?? 0) };
  const promotedCardId = typeof user?.promoted_card_id === 'number' ? user.promoted_card_id : null;
  const now = isoSeconds();
  const proposed: ProposedOrderItem = {
    uuid: newUuid(),
    state: PROPOSED,
    merchant_id: input.merchantId,
    app_id: input.appId,
    location_id: input.locationId,
    user_id: userId,
    spend_amount: input.spendAmount,
    tax_amount: input.taxAmount,
    exemption_amount: input.exemptionAmount,
    discount_amount: availableDiscount(credit.balance, input.spendAmount, input.exemptionAmount),
    partial_authorization_allowed: input.partialAuthorizationAllowed,
    discount_only: input.discountOnly,
    items: input.items,
    cashier: input.cashier ?? null,
    register: input.register ?? null,
    identifier_from_merchant: input.identifierFromMerchant ?? null,
    promoted_card_id: promotedCardId,
    created_at: now,
    updated_at: now,
  };
  // The uuid is new: only our own write, re-sent after its answer was lost, can already be there.
  await createItem({ ...keys.proposedOrder(proposed.uuid), entity: 'ProposedOrder', ...proposed }, { resend: true });
  return proposed;
}

export function serializeProposedOrder(proposed: ProposedOrderItem) {
  return {
    proposed_order: {
      uuid: proposed.uuid,
      discount_amount: proposed.discount_amount,
      spend_amount: proposed.spend_amount,
      tax_amount: proposed.tax_amount,
      exemption_amount: proposed.exemption_amount,
      location_id: proposed.location_id,
      created_at: proposed.created_at,
    },
  };
}

export async function getProposedOrder(uuid: string): Promise<ProposedOrderItem | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.proposedOrder(uuid), ConsistentRead: true }));
  return result.Item as ProposedOrderItem | undefined;
}

/**
 * What the POS sends to complete a proposed order: the settlement's money fields, with the user named
 * by the QR code data and the proposed order by its uuid (both resolved here, not by the caller).
 */
export interface CompleteOrderInput
  extends Pick<
    SettleOrderInput,
    | 'merchantId' | 'locationId' | 'spendAmount' | 'taxAmount' | 'tipAmount' | 'appliedDiscountAmount' | 'exemptionAmount'
    | 'partialAuthorizationAllowed' | 'discountOnly' | 'items' | 'cashier' | 'register' | 'identifierFromMerchant'
    | 'receiptMessageHtml' | 'respond'
  > {
  proposedOrderUuid: string;
  paymentTokenData: string;
  fees: unknown[];
}

/** POST /v15/completed_orders: settles a proposed order (at most once) and returns the completed order. */
export async function completeProposedOrder(input: CompleteOrderInput): Promise<OrderRecord> {
  validateIdentifierFromMerchant(input.identifierFromMerchant);
  validateReceiptMessageHtml(input.receiptMessageHtml);
  // Everything the checks need, keyed by the request alone: one BatchGetItem (the proposed order consistently).
  const [proposedItem, paymentToken, locationItem, merchant] = await readItems([
    keys.proposedOrder(input.proposedOrderUuid),
    keys.paymentToken(input.paymentTokenData),
    keys.location(input.locationId),
    keys.merchant(input.merchantId),
  ], { consistent: true });
  const proposed = proposedItem as ProposedOrderItem | undefined;
  if (!proposed) throw unprocessable('order', 'proposed_order_uuid', 'Proposed order not found.', 'not_found');
  if (proposed.merchant_id !== input.merchantId) throw MERCHANT_NOT_AUTHORIZED();
  const userId = typeof paymentToken?.user_id === 'number' && input.paymentTokenData ? paymentToken.user_id : undefined;
  if (userId === undefined || userId !== proposed.user_id) throw USER_NOT_AUTHORIZED();
  const location = locationItem as unknown as LocationItem | undefined;
  if (!location || location.merchant_id !== input.merchantId || !merchant) throw LOCATION_NOT_FOUND();
  if (proposed.state === COMPLETED) throw unprocessable('order', 'base', 'This order has already been completed.', 'already_completed');

  return settleOrder({
    source: 'in_store',
    settlement: { key: keys.proposedOrder(proposed.uuid), fromState: PROPOSED, toState: COMPLETED, uuid: proposed.uuid },
    merchantId: input.merchantId,
    locationId: input.locationId,
    userId,
    appId: proposed.app_id,
    spendAmount: input.spendAmount,
    taxAmount: input.taxAmount,
    tipAmount: input.tipAmount,
    appliedDiscountAmount: input.appliedDiscountAmount,
    exemptionAmount: input.exemptionAmount,
    partialAuthorizationAllowed: input.partialAuthorizationAllowed,
    discountOnly: input.discountOnly,
    items: input.items,
    fees: input.fees,
    identifierFromMerchant: input.identifierFromMerchant,
    cashier: input.cashier,
    register: input.register,
    receiptMessageHtml: input.receiptMessageHtml,
    respond: input.respond,
    prefetched: { location, merchant: merchant as unknown as MerchantItem, promotedCardId: proposed.promoted_card_id ?? null },
  });
}

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

// ---------------------------------------------------------------------------------------------
// Users' orders

/** All credit that funded the order: merchant-funded discount and gift card value. */
function creditApplied(order: OrderRecord): number {
  return order.applied_discount_amount + order.gift_card_total_amount;
}

/** The user-oriented order's list columns. */
export function userOrderListColumns(order: OrderRecord) {
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

function detailItem(item: OrderItemInput): { item: Record<string, unknown> } {
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

/** The user-oriented order's detail columns. */
export function serializeUserOrderDetail(order: OrderRecord) {
  return {
    order: {
      id: orderNumber(order.uuid),
      ...userOrderListColumns(order),
      location_latitude: order.location_latitude,
      location_longitude: order.location_longitude,
      location_name: order.location_name ?? order.location_street_address,
      tax_amount: order.tax_amount === 0 ? null : order.tax_amount,
      items: order.items.map(detailItem),
    },
  };
}

/** A stable integer id for the detail's `id` (the uuid's first 48 bits: a safe integer). */
function orderNumber(uuid: string): number {
  return Number.parseInt(uuid.replace(/[^0-9a-f]/gi, '').slice(0, 12) || '0', 16);
}

/** GET /v15/orders/:uuid: the user's own order; anyone else's is not found. */
export async function getUserOrder(userId: number, uuid: string): Promise<OrderRecord> {
  const order = await getOrder(uuid);
  if (!order || order.user_id !== userId) throw notFound();
  return order;
}

function visibleTo(app: App, order: OrderRecord): boolean {
  return app.global || app.merchant_ids.includes(order.merchant_id);
}

/**
 * Apps are never changed after creation (apps.ts has no update), so a Lambda keeps the ones it has read:
 * a warm function answers the user's orders with the token check and the index query alone.
 * Keyed by table too, as tests run several tables in one process.
 */
const knownApps = new Map<string, App>();

async function appOf(appId: number): Promise<App | undefined> {
  const cacheKey = `${table()}#${appId}`;
  const known = knownApps.get(cacheKey);
  if (known) return known;
  const app = await getApp(appId);
  if (app) {
    if (knownApps.size >= 1000) knownApps.clear();
    knownApps.set(cacheKey, app);
  }
  return app;
}

export interface OrdersPage {
  orders: OrderRecord[];
  /** gsi1sk of the last order shown: the next page starts below it. */
  nextCursor: string | undefined;
}

/**
 * One page of the user's orders visible to the app, newest first. `cursor` (from a previous page's
 * Link) resumes after that order; without it, `page` (1-based) skips whole pages from the newest.
 */
export async function listAppOrders(appId: number, userId: number, position: { cursor?: string; page?: number }, pageSize = ORDERS_PAGE_SIZE): Promise<OrdersPage> {
  const app = await appOf(appId);
  if (!app) return { orders: [], nextCursor: undefined };
  const skip = position.cursor ? 0 : (Math.max(1, position.page ?? 1) - 1) * pageSize;
  const wanted = skip + pageSize + 1;
  const visible: { order: OrderRecord; sortKey: string }[] = [];
  const partition = keys.userOrders(userId);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: position.cursor ? 'gsi1pk = :pk AND gsi1sk < :cursor' : 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        ExpressionAttributeValues: position.cursor ? { ':pk': partition.gsi1pk, ':cursor': position.cursor } : { ':pk': partition.gsi1pk, ':prefix': partition.skPrefix },
        ScanIndexForward: false,
        Limit: Math.min(100, wanted - visible.length + 10),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.entity !== 'Order') continue;
      const order = item as unknown as OrderRecord;
      if (visibleTo(app, order)) visible.push({ order, sortKey: String(item.gsi1sk) });
      if (visible.length >= wanted) break;
    }
    startKey = visible.length >= wanted ? undefined : page.LastEvaluatedKey;
  } while (startKey);
  const shown = visible.slice(skip, skip + pageSize);
  const hasMore = visible.length > skip + pageSize;
  return { orders: shown.map((entry) => entry.order), nextCursor: hasMore ? shown.at(-1)?.sortKey : undefined };
}

/** The user's orders: one of them (GET /v15/orders/:uuid) and a page of those an app may show (GET /v15/apps/orders). */
import { table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { projectionOf } from '#shared/db/reads.ts';
import { notFound } from '#shared/errors.ts';
import { getApp, type App } from '#shared/domain/identity/apps.ts';
import { pageOfOrders, type PagePosition, type PositionedOrder } from './order-pages.ts';
import { getOrder, type OrderRecord } from './record.ts';
import { USER_ORDER_LIST_ATTRIBUTES, type UserOrderListRecord } from './views.ts';

/** Orders per page of GET /v15/apps/orders. */
export const ORDERS_PAGE_SIZE = 10;

/** Whether a decoded paging cursor is an order's position in the user's orders (the only cursor this list hands out). */
export function isOrdersCursor(position: string): boolean {
  return keys.isUserOrdersSortKey(position);
}

/** GET /v15/orders/:uuid: the user's own order; anyone else's is not found. */
export async function getUserOrder(userId: number, uuid: string): Promise<OrderRecord> {
  const order = await getOrder(uuid);
  if (!order || order.user_id !== userId) throw notFound();
  return order;
}

function visibleTo(app: App, order: Pick<OrderRecord, 'merchant_id'>): boolean {
  return app.global || app.merchant_ids.includes(order.merchant_id);
}

/**
 * Apps are never changed after creation (apps.ts has no update), so a Lambda keeps the ones it has read:
 * a warm function answers the user's orders with the token check and the index query alone.
 * Keyed by table too, as tests run several tables in one process.
 */
const knownApps = new Map<string, App>();

export async function appOf(appId: number): Promise<App | undefined> {
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

/**
 * A page reads only what its list columns show (plus the entity and the index sort key): an order
 * item carries its lines, fees and payment details, which the list never shows and which would
 * otherwise be read, sent and unmarshalled for every order of the page.
 */
const LIST_PROJECTION = projectionOf(['entity', 'gsi1sk', ...USER_ORDER_LIST_ATTRIBUTES]);

/**
 * One page of the user's orders visible to the app, newest first. `cursor` (from a previous page's
 * Link) resumes after that order; without it, `page` (1-based) skips whole pages from the newest.
 * Projected: each order holds the list's columns only (UserOrderListRecord) and its position.
 */
export async function listAppOrders(
  appId: number,
  userId: number,
  position: PagePosition,
  pageSize = ORDERS_PAGE_SIZE,
): Promise<PositionedOrder<UserOrderListRecord>[]> {
  const app = await appOf(appId);
  if (!app) return [];
  const partition = keys.userOrders(userId);
  return pageOfOrders(
    {
      index: 'gsi1',
      partition: { pk: partition.gsi1pk, skPrefix: partition.skPrefix },
      maxLimit: 100,
      projection: LIST_PROJECTION,
      shows: (order) => visibleTo(app, order),
    },
    position,
    pageSize,
  );
}

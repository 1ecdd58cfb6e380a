/**
 * Order-ahead test support: the test API with the local state machine, and a location that offers
 * pickup and delivery (open around the clock, so tests do not depend on the time of day) with the
 * sample menu, a user with a delivery address inside its delivery area.
 */
import { randomUUID } from 'node:crypto';
import { createAddress } from '#shared/domain/identity/addresses.ts';
import { createAddressBody } from '#shared/schemas/addresses.ts';
import type { LocationInput } from '#shared/domain/merchants/locations.ts';
import { createMenuForLocation, type MenuInput } from '#shared/domain/order-ahead/menu.ts';
import { SAMPLE_IDS, sampleMenu } from '#shared/domain/order-ahead/sample-menu.ts';
import type { OrderingProviderName } from '#shared/ordering/index.ts';
import { startLocalWorkflows, stopLocalWorkflows, type LocalWorkflowOptions } from '../../scripts/local/workflows.ts';
import { startTestApi, type ApiResult, type TestApi } from './api.ts';
import { appFixture, merchantFixture, userFixture } from './fixtures.ts';
import { locationFixture } from './locations.ts';

/**
 * The test API with the local state machines, in the local workflow service's own process (started and
 * ready before the first test; the routes start executions through the SFN client, as in AWS). A Task a
 * test overrides (`taskHandlers`) runs in this process, where the test's own state is.
 */
export async function startOrderAheadTestApi(options: LocalWorkflowOptions = {}): Promise<TestApi> {
  const api = await startTestApi();
  // The completion's wait between questions to the provider (3 s deployed) is short in tests.
  // The Tasks build URLs (webhook event bodies) from PUBLIC_BASE_URL, as the deployed stack sets it: this gateway's.
  await startLocalWorkflows({ waitMs: 100, ...options, env: { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? api.baseUrl, ...options.env } });
  return {
    ...api,
    close: async () => {
      await stopLocalWorkflows();
      await api.close();
    },
  };
}

/** Boston; the delivery area is a 3 km circle around it. */
export const STORE = { latitude: 42.3601, longitude: -71.0589 };
export const NEARBY = { latitude: 42.3656, longitude: -71.0546 };
export const FAR_AWAY = { latitude: 42.2808, longitude: -71.8023 };

/**
 * An order-ahead location (with its app and merchant unless given) and the sample menu; `provider` picks
 * the sandbox ordering provider its orders are forwarded to (docs/order-ahead.md).
 */
export async function orderAheadLocationFixture(
  options: {
    location?: Partial<LocationInput>;
    menu?: MenuInput;
    provider?: OrderingProviderName;
    within?: { app: { app_id: number }; merchant: Awaited<ReturnType<typeof merchantFixture>> };
  } = {},
) {
  const { app } = options.within ?? (await appFixture({ global: true }));
  const merchant = options.within?.merchant ?? (await merchantFixture(app.app_id));
  const location = await locationFixture(merchant.merchant.merchant_id, {
    name: 'Order ahead test kitchen',
    street_address: '123 Main St.',
    postal_code: '02114',
    latitude: STORE.latitude,
    longitude: STORE.longitude,
    fulfillment_types: ['in_store', 'pickup', 'delivery'],
    delivery_radius_m: 3000,
    hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], opens: '00:00', closes: '24:00' }],
    supports_scheduling: true,
    ready_time_estimate_in_minutes: 15,
    ...options.location,
  });
  const menuInput = options.menu ?? sampleMenu();
  const menu = await createMenuForLocation(
    location.location_id,
    options.provider ? { ...menuInput, settings: { ...menuInput.settings, ordering_provider: options.provider } } : menuInput,
  );
  return { app, merchant, location, menu };
}

export async function orderAheadUserFixture(appId: number, position: { latitude: number; longitude: number } = NEARBY) {
  const user = await userFixture(appId);
  const address = await createAddress(
    user.user.user_id,
    createAddressBody.parse({
      user_address: { street_address: `${randomUUID().slice(0, 4)} Hanover St.`, locality: 'Boston', region: 'MA', postal_code: '02113', ...position },
    }).user_address,
  );
  return { ...user, address };
}

/** Starts the smallest order-ahead order (one of `itemId`, one water unless given, for pickup) at a sample-menu location, as the user of `token`. */
export function startPickup(api: TestApi, token: string, locationId: number, itemId: number = SAMPLE_IDS.water): Promise<ApiResult> {
  return api.call('POST', '/v15/order_ahead/orders', {
    token,
    body: { order: { location_id: locationId, conveyance: { fulfillment_type: 'pickup' }, items: [{ item: { id: itemId, quantity: 1 } }] } },
  });
}

/** One cart line: an item of the sample menu, its quantity and options (special_instructions when a test sets them). */
export interface CartLine {
  id: number;
  quantity: number;
  option_ids?: number[];
  special_instructions?: string | null;
}

/**
 * A start (or upsells) body as the iOS SDK sends it: every key, absent values null; pickup unless `order`
 * names another conveyance. `order` adds or replaces keys of the order.
 */
export function iosCart(locationId: number, lines: CartLine[], order: Record<string, unknown> = {}) {
  return {
    order: {
      location_id: locationId,
      conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
      items: lines.map((item) => ({ item })),
      special_instructions: null,
      tip_amount: null,
      ...order,
    },
  };
}

const POLL_INTERVAL_MS = 1_050;

/**
 * Polls an order_url as a well-behaved client: at most once a second (and after Retry-After on a
 * 429), until the answer is not 202 or the deadline passes. Returns every status seen and the last answer.
 */
export async function pollUntilSettled(api: TestApi, orderUrl: string, token: string, deadlineMs = 45_000): Promise<{ statuses: number[]; last: ApiResult }> {
  const deadline = Date.now() + deadlineMs;
  const statuses: number[] = [];
  for (;;) {
    const response = await api.call('GET', orderUrl, { token });
    statuses.push(response.status);
    if (response.status !== 202 && response.status !== 429) return { statuses, last: response };
    if (Date.now() > deadline) throw new Error(`order still not settled after ${deadlineMs} ms: ${statuses.join(', ')}`);
    const retryAfter = Number(response.headers.get('retry-after') ?? 0) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(POLL_INTERVAL_MS, retryAfter)));
  }
}

/** How the iOS SDK polls an order_url: the same GET every 0.5 s while it answers 202. */
export const IOS_POLL_INTERVAL_MS = 500;

/**
 * Polls like the iOS SDK (every 0.5 s while 202) until another answer or the deadline. Returns every
 * answer seen, so a test can check each one (statuses, Retry-After) and the last.
 */
export async function pollLikeIos(api: TestApi, orderUrl: string, token: string, deadlineMs = 30_000): Promise<{ answers: ApiResult[]; last: ApiResult }> {
  const deadline = Date.now() + deadlineMs;
  const answers: ApiResult[] = [];
  for (;;) {
    const response = await api.call('GET', orderUrl, { token });
    answers.push(response);
    if (response.status !== 202) return { answers, last: response };
    if (Date.now() > deadline) throw new Error(`still 202 after ${deadlineMs} ms (${answers.length} polls)`);
    await new Promise((resolve) => setTimeout(resolve, IOS_POLL_INTERVAL_MS));
  }
}

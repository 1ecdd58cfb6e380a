/**
 * The benchmarked endpoints, each sent as the contract and the real clients' payloads have it. A
 * scenario whose seed data is missing is reported as "not available" (see seed.ts); every route it
 * names must be in shared/routes.ts (checked when this module loads).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueTokenWithExpiry } from '#shared/auth/tokens.ts';
import { MERCHANT_PERMISSIONS, routes, type HttpMethod, type StaffRole } from '#shared/routes.ts';
import { DELIVERIES_LISTED, recordAttempt } from '#shared/domain/events/deliveries.ts';
import { clearWindow, GIFT_CARD_ORDERS_PER_BUYER, WEBHOOK_REPLAYS_PER_ENDPOINT } from '#shared/domain/rate-limits.ts';
import type { HttpRequestSpec } from '../harness/measure.ts';
import { BENCH_PASSWORD, benchLocationPlace, createLocationFor, seedWorld, type BenchUser, type World } from '../harness/seed.ts';

export interface RouteRef {
  method: HttpMethod;
  path: string;
}

/** The fewest DynamoDB round trips the endpoint can make, and why (the target the bench checks). */
export interface MinimumRoundTrips {
  roundTrips: number;
  /** How many of them are TransactWriteItems (priced at the transaction floor in the overhead ratio). */
  transactions: number;
  rationale: string;
}

export interface ScenarioContext {
  world: World;
  api: Api;
  runId: string;
  /** How many requests the run will send (consumable scenarios create that many resources). */
  count: number;
  quick: boolean;
}

/**
 * Work an endpoint does by design besides its round trips, priced into its floor by a bare run of the
 * same work measured next to it: `passwordHash`, one scrypt hash with the handlers' parameters (a login).
 */
export type IntrinsicWork = 'passwordHash';

export interface Scenario {
  id: string;
  title: string;
  /** The route measured. */
  route: RouteRef;
  /** World pieces it needs (seed problems make it unavailable). */
  needs?: (keyof World)[];
  minimum: MinimumRoundTrips;
  intrinsic?: IntrinsicWork;
  expectedStatuses: number[];
  /** Each request uses up something prepared for it, so runs are bounded by count, not time. */
  consumable?: boolean;
  prepare(context: ScenarioContext): Promise<() => HttpRequestSpec>;
  /**
   * Its requests start Step Functions executions that on AWS never share their CPU: the bench's local
   * workflow service holds them from before its warm-up until its last run, then runs them, and the next
   * measurement starts once they have all finished (bench/harness/stack.ts holdWorkflows).
   */
  holdsWorkflows?: true;
  /** Sees every measured response (e.g. to keep completed orders for the refund scenario). */
  onResponse?(world: World, status: number, body: string): void;
}

/** A route this bench measures: it must be a row of shared/routes.ts. */
function routeRef(ref: RouteRef): RouteRef {
  if (!routes.some((route) => route.method === ref.method && route.path === ref.path))
    throw new Error(`bench: ${ref.method} ${ref.path} is not in shared/routes.ts`);
  return ref;
}

/** A scenario as its table row writes it: the route as `METHOD /path`, 200 the expected status unless it says otherwise. */
type ScenarioRow = Omit<Scenario, 'route' | 'expectedStatuses'> & { route: `${HttpMethod} /${string}`; expectedStatuses?: number[] };

function scenarioFrom({ route, expectedStatuses = [200], ...row }: ScenarioRow): Scenario {
  const [method, path] = route.split(' ') as [HttpMethod, string];
  return { ...row, route: routeRef({ method, path }), expectedStatuses };
}

/** A GET of `path`, each request as the next seeded user in turn. */
function eachUserGets(path: (world: World) => string): Scenario['prepare'] {
  return async ({ world }) => {
    const nextUser = roundRobin(world.users);
    return () => ({ method: 'GET', path: path(world), headers: auth(nextUser().token) });
  };
}

/** The orders (and so ledger entries) of the CSV exports' merchant, all made today at one of its 11 locations. */
const EXPORT_ORDERS = 400;

/** GETs of a management route with an owner's staff token of the bench merchant (or `worldOf`'s), over today (UTC). */
function ownerGets(
  path: (world: World, range: string) => string,
  worldOf: (context: ScenarioContext) => Promise<World> = async ({ world }) => world,
  expectedRows?: number,
): Scenario['prepare'] {
  return async (context) => {
    const world = await worldOf(context);
    const { issueTokenWithExpiry } = await import('#shared/auth/tokens.ts');
    const issued = await issueTokenWithExpiry({
      subject: 'merchant',
      merchantId: world.merchantId,
      appId: world.appId,
      permissions: MERCHANT_PERMISSIONS,
      staff: { staffId: 1, role: 'owner' },
    });
    const today = new Date().toISOString().slice(0, 10);
    const request = { method: 'GET' as const, path: path(world, `from=${today}&to=${today}`), headers: auth(issued!.token) };
    // An export that misses rows would be measured doing less than its work: it answers every row seeded, or no run.
    if (expectedRows !== undefined) {
      const response = await fetch(`${context.api.baseUrl}${request.path}`, { headers: request.headers });
      const rows = (await response.text()).split('\r\n').filter(Boolean).length - 1;
      if (response.status !== 200 || rows !== expectedRows) throw new Error(`${request.path} answered ${response.status} with ${rows} of ${expectedRows} rows`);
    }
    return () => request;
  };
}

/** A GET of `path` without a token. */
function anonymousGets(path: (world: World) => string): Scenario['prepare'] {
  return async ({ world }) =>
    () => ({ method: 'GET', path: path(world) });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface Api {
  baseUrl: string;
  call(method: string, pathOrUrl: string, options?: { token?: string; body?: unknown }): Promise<ApiResponse>;
}

export function createApi(baseUrl: string): Api {
  return {
    baseUrl,
    async call(method, pathOrUrl, options = {}) {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (options.token) headers.Authorization = `token ${options.token}`;
      if (options.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${baseUrl}${pathOrUrl}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: response.status, headers: response.headers, body };
    },
  };
}

/** Runs `create` count times, `concurrency` at a time. */
export async function createMany<T>(count: number, concurrency: number, create: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results.push(await create(index));
      }
    }),
  );
  return results;
}

function roundRobin<T>(items: readonly T[]): () => T {
  let index = 0;
  return () => items[index++ % items.length]!;
}

const auth = (token: string) => ({ authorization: `token ${token}` });

/** A staff member's token of the bench merchant (management routes take no shared login), issued as the login issues it. */
async function benchStaffToken(world: World, role: StaffRole, merchantId = world.merchantId): Promise<string> {
  const staffId = 1_000_000_000 + Number.parseInt(randomBytes(3).toString('hex'), 16);
  const issued = await issueTokenWithExpiry({
    subject: 'merchant',
    merchantId,
    appId: world.appId,
    permissions: MERCHANT_PERMISSIONS,
    staff: { staffId, role },
  });
  if (!issued) throw new Error('bench: no staff token');
  return issued.token;
}

/** GETs of a management route of the bench merchant, each with one staff token of `role`. */
function staffGets(role: StaffRole, path: (world: World) => string): Scenario['prepare'] {
  return async ({ world }) => {
    const token = await benchStaffToken(world, role);
    return () => ({ method: 'GET', path: path(world), headers: auth(token) });
  };
}

/** A small in-store check, as the C# POS client sends it (amounts in cents). */
const SPEND_AMOUNT = 1_100;
const TAX_AMOUNT = 100;
const CHECK_ITEMS = [
  {
    item: {
      charged_price_amount: 1_000,
      description: '12oz latte',
      name: 'Latte',
      quantity: 2,
      sku: 'LAT-12',
      category: 'Coffee',
      standard_price_amount: 1_000,
    },
  },
];

/** A check the POS publishes for a customer to claim (PUT /v15/checks). */
export function publishedCheckBody(world: World) {
  return {
    check: {
      location_id: world.locationId,
      spend_amount: SPEND_AMOUNT,
      tax_amount: TAX_AMOUNT,
      exemption_amount: 0,
      partial_authorization_allowed: false,
      cashier: 'Bench',
      register: '1',
      identifier_from_merchant: 'bench',
      items: CHECK_ITEMS,
    },
  };
}

/** A one-step POS order paid with the user's QR code (POST /v15/orders). */
export function oneStepOrderBody(world: World, user: BenchUser) {
  return {
    order: {
      location_id: world.locationId,
      payment_token_data: user.paymentTokenData,
      spend_amount: SPEND_AMOUNT,
      tax_amount: TAX_AMOUNT,
      identifier_from_merchant: 'bench',
      items: CHECK_ITEMS,
    },
  };
}

export function proposedOrderBody(world: World, user: BenchUser) {
  return {
    proposed_order: {
      payment_token_data: user.paymentTokenData,
      cashier: 'Bench',
      register: '1',
      identifier_from_merchant: 'bench',
      location_id: world.locationId,
      spend_amount: SPEND_AMOUNT,
      tax_amount: TAX_AMOUNT,
      exemption_amount: 0,
      partial_authorization_allowed: false,
      discount_only: false,
      items: CHECK_ITEMS,
    },
  };
}

export function completedOrderBody(world: World, user: BenchUser, proposedOrderUuid: string) {
  return {
    completed_order: {
      payment_token_data: user.paymentTokenData,
      proposed_order_uuid: proposedOrderUuid,
      cashier: 'Bench',
      register: '1',
      identifier_from_merchant: 'bench',
      location_id: world.locationId,
      spend_amount: SPEND_AMOUNT,
      applied_discount_amount: 0,
      tax_amount: TAX_AMOUNT,
      exemption_amount: 0,
      partial_authorization_allowed: false,
      items: CHECK_ITEMS,
    },
  };
}

/** Proposes an order for `user` through the API; returns its uuid. */
export async function proposeOrder(api: Api, world: World, user: BenchUser): Promise<string> {
  const response = await api.call('POST', '/v15/proposed_orders', { token: world.merchantToken, body: proposedOrderBody(world, user) });
  const uuid = response.body?.proposed_order?.uuid;
  if (response.status !== 200 || typeof uuid !== 'string')
    throw new Error(`proposing an order answered ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  return uuid;
}

/**
 * Proposes and completes an order for `user` through the API; returns the completed order's uuid.
 * Completing two orders of one user at once is refused (balance_changed), so callers complete a
 * user's orders one after another; a refusal anyway is retried as a POS would.
 */
export async function completeOrder(api: Api, world: World, user: BenchUser): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const proposed = await proposeOrder(api, world, user);
    const response = await api.call('POST', '/v15/completed_orders', { token: world.merchantToken, body: completedOrderBody(world, user, proposed) });
    const uuid = response.body?.order?.uuid;
    if (response.status === 200 && typeof uuid === 'string') return uuid;
    if (attempt >= 3 || response.status !== 422)
      throw new Error(`completing an order answered ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
  }
}

/**
 * Completes `count` orders spread over `users`, never two of one user at the same time. Returned in turns (one
 * order of each user, then the next of each), so that requests taking them in order, from either end, name
 * different customers: a customer's orders refunded at once would race on their balances.
 */
export async function completeOrders(api: Api, world: World, users: readonly BenchUser[], count: number): Promise<string[]> {
  const perUser = users.map((user, index) => ({ user, orders: Math.floor(count / users.length) + (index < count % users.length ? 1 : 0) }));
  const completed: string[][] = perUser.map(() => []);
  await createMany(perUser.length, 8, async (index) => {
    const { user, orders } = perUser[index]!;
    for (let order = 0; order < orders; order++) completed[index]!.push(await completeOrder(api, world, user));
  });
  const turns = Math.max(0, ...completed.map((orders) => orders.length));
  return Array.from({ length: turns }, (_, turn) => completed.flatMap((orders) => orders.slice(turn, turn + 1))).flat();
}

/**
 * The customers of `count` detached refunds of 1 cent, in turns: each has first paid the merchant at least their
 * share (a customer's detached refunds never exceed their card's net charges at the merchant).
 */
async function detachedRefundCustomers(api: Api, world: World, count: number): Promise<() => BenchUser> {
  await completeOrders(api, world, world.users, world.users.length * Math.max(1, Math.ceil(count / world.users.length / SPEND_AMOUNT)));
  return roundRobin(world.users);
}

/** A consumable scenario's `next`: one request per prepared item, each used once, in order. */
function eachOnce<T>(items: readonly T[], what: string, request: (item: T, index: number) => HttpRequestSpec): () => HttpRequestSpec {
  let next = 0;
  return () => {
    const index = next++;
    const item = items[index];
    if (item === undefined) throw new Error(`ran out of ${what}`);
    return request(item, index);
  };
}

const READ_MINIMUM: MinimumRoundTrips = { roundTrips: 2, transactions: 0, rationale: 'token check + one read' };

/** The measured endpoints, one row each, in the order they run (scenarioFrom fills in the rest). */
const SCENARIO_ROWS: ScenarioRow[] = [
  {
    id: 'login',
    title: 'Log in (username and password)',
    route: 'POST /v15/access_tokens',
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        'in parallel, a consistent BatchGetItem (API key, login) and one conditional UpdateItem per failed-login window (the attempt is counted before the password check, so concurrent guesses cannot outrun the lock); then one transaction (the token, guarded by the verified password hash, with the windows given back); scrypt dominates the time by design (docs/identity.md)',
    },
    intrinsic: 'passwordHash',
    async prepare({ world }) {
      const nextUser = roundRobin(world.users);
      return () => ({
        method: 'POST',
        path: '/v15/access_tokens',
        body: { access_token: { api_key: world.apiKey, username: nextUser().email, password: BENCH_PASSWORD } },
      });
    },
  },
  {
    id: 'logout',
    title: 'Log out (revoke the presented token)',
    route: 'DELETE /v15/access_tokens',
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + one BatchWriteItem deleting it' },
    expectedStatuses: [204],
    consumable: true,
    async prepare({ world, count }) {
      const { issueToken } = await import('#shared/auth/tokens.ts');
      const { USER_PERMISSIONS } = await import('#shared/routes.ts');
      const tokens = await createMany(count, 8, (index) =>
        issueToken({
          subject: 'user',
          userId: world.users[index % world.users.length]!.userId,
          appId: world.appId,
          permissions: USER_PERMISSIONS,
          unlimited: true,
        }),
      );
      let next = 0;
      return () => ({ method: 'DELETE', path: '/v15/access_tokens', headers: auth(tokens[next++]!) });
    },
  },
  {
    id: 'users-show',
    title: 'Show user (reference read)',
    route: 'GET /v15/users',
    minimum: {
      ...READ_MINIMUM,
      rationale:
        'token check + one Query of the user item and its totals item (orders, merchants visited, savings; adjacent sort keys: docs/data-model.md, Identity)',
    },
    prepare: eachUserGets(() => '/v15/users'),
  },
  {
    id: 'payment-token-rotation',
    title: 'Rotate the QR code (payment token)',
    route: 'POST /v15/payment_token/rotations',
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check; in parallel the user item (the code to replace) and the id counter (the new code's id); then one transaction: the user item guarded by the code it replaces, the new QR item, the old one's deletion (so the old code dies in the same write)",
    },
    consumable: true,
    async prepare({ world, count, runId }) {
      // Users of its own: a rotation kills the QR codes the money scenarios scan.
      const { createUser } = await import('#shared/domain/identity/users.ts');
      const { issueToken } = await import('#shared/auth/tokens.ts');
      const { USER_PERMISSIONS } = await import('#shared/routes.ts');
      const tokens = await createMany(count, 8, async (index) => {
        const user = await createUser(world.appId, { email: `bench-${runId}-rotate-${index}@example.com`, first_name: 'Bench', last_name: 'Rotator' });
        return issueToken({ subject: 'user', userId: user.user_id, appId: world.appId, permissions: USER_PERMISSIONS, unlimited: true });
      });
      let next = 0;
      return () => ({ method: 'POST', path: '/v15/payment_token/rotations', headers: auth(tokens[next++]!) });
    },
  },
  {
    id: 'locations-list',
    title: 'List locations (page 1)',
    route: 'GET /v15/apps/{app_id}/locations',
    needs: ['locationId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: 'no token; the app (its merchants) + one index query' },
    prepare: anonymousGets((world) => `/v15/apps/${world.appId}/locations`),
  },
  {
    id: 'campaign-representation',
    title: 'Campaign representation (spend_based_loyalty_v1)',
    route: 'GET /v15/campaigns/{id}/{representation_type}',
    needs: ['campaignId'],
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale:
        'token check + the campaign + one BatchGetItem of the app and the user\'s progress (unavoidable: the progress key holds the campaign\'s merchant, known only from the campaign; docs/data-model.md "Per-request reads (loyalty)")',
    },
    prepare: eachUserGets((world) => `/v15/campaigns/${world.campaignId}/spend_based_loyalty_v1`),
  },
  {
    id: 'rewards-list',
    title: 'List rewards at a merchant',
    route: 'GET /v15/merchants/{merchant_id}/rewards',
    needs: ['campaignId'],
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale:
        "token check + two parallel Queries: the merchant's catalog (merchant + campaigns) and the user's loyalty at the merchant (unavoidable: one is shared by all users, the other is one user's; docs/data-model.md \"Per-request reads (loyalty)\"); 1 without a token",
    },
    prepare: eachUserGets((world) => `/v15/merchants/${world.merchantId}/rewards`),
  },
  {
    id: 'merchant-loyalty',
    title: "User's loyalty record at a merchant",
    route: 'GET /v15/merchants/{merchant_id}/loyalty',
    needs: ['campaignId'],
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale:
        'token check + three parallel reads: the merchant\'s catalog (Query: the spend goal), the user\'s loyalty at the merchant (Query: progress and totals), and one BatchGetItem of the credit and paused-credit balances (docs/data-model.md "Per-request reads (loyalty)")',
    },
    prepare: eachUserGets((world) => `/v15/merchants/${world.merchantId}/loyalty`),
  },
  {
    id: 'location-rewards',
    title: 'Rewards usable at a location',
    route: 'GET /v15/locations/{location_id}/rewards',
    needs: ['locationId', 'campaignId'],
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale:
        "token check with the location (it names the merchant and the time zone; keyed by the path, sent beside it) + the rewards list's two parallel Queries: 2 waits; 2 calls without a token",
    },
    prepare: eachUserGets((world) => `/v15/locations/${world.locationId}/rewards`),
  },
  {
    id: 'location-reward-summary',
    title: "Totals of a user's rewards at a location",
    route: 'GET /v15/locations/{location_id}/reward_summary',
    needs: ['locationId', 'campaignId'],
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale: 'the same reads as the rewards at the location, in the same 2 waits (the summary is computed from that list)',
    },
    prepare: eachUserGets((world) => `/v15/locations/${world.locationId}/reward_summary`),
  },
  {
    id: 'location-campaigns',
    title: 'Campaign metadata at a location (A18)',
    route: 'GET /v15/locations/{location_id}/campaigns',
    needs: ['locationId', 'campaignId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: "no token; the location (its merchant) + one Query of the merchant's catalog partition" },
    prepare: anonymousGets((world) => `/v15/locations/${world.locationId}/campaigns`),
  },
  {
    id: 'location-web-links',
    title: "A location's web links (A27)",
    route: 'GET /v15/locations/{location_id}/web_links',
    needs: ['locationId'],
    minimum: { roundTrips: 1, transactions: 0, rationale: 'no token; one GetItem of the location (its link URLs and whether it is shown)' },
    prepare: anonymousGets((world) => `/v15/locations/${world.locationId}/web_links`),
  },
  {
    id: 'apn-device-register',
    title: 'Register a push-notification device (I17)',
    route: 'POST /v15/apn_devices',
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale:
        "token check + the api_key's app (must be the token's) + the device's PutItem and the Query of the user's other devices in one wait (the cap of 10)",
    },
    async prepare({ world }) {
      const nextUser = roundRobin(world.users);
      let registration = 0;
      return () => {
        const user = nextUser();
        // Phones register their token again at each launch: each user's few devices (under the cap of 10, so no
        // request pays the eviction of the oldest, a round trip the minimum does not count).
        const device = Math.floor(registration++ / world.users.length) % 4;
        const token = createHash('sha256').update(`${user.token}#${device}`).digest('hex').toUpperCase();
        return {
          method: 'POST',
          path: '/v15/apn_devices',
          headers: auth(user.token),
          body: { api_key: world.apiKey, apn_device: { device_identifier: `bench-device-${device}`, sandbox: false, token } },
        };
      };
    },
  },
  {
    id: 'merchant-campaigns',
    title: 'Campaign metadata of a merchant (A19)',
    route: 'GET /v15/merchants/{merchant_id}/campaigns',
    needs: ['campaignId'],
    minimum: { roundTrips: 1, transactions: 0, rationale: "no token; one Query of the merchant's catalog partition (its merchant row says it exists)" },
    prepare: anonymousGets((world) => `/v15/merchants/${world.merchantId}/campaigns`),
  },
  {
    id: 'users-orders',
    title: "The user's orders, Ruby form (A31)",
    route: 'GET /v15/users/orders',
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the user's orders index (the app is kept in the function's memory)" },
    prepare: eachUserGets(() => '/v15/users/orders'),
  },
  {
    id: 'gift-card-load',
    title: 'Gift card load',
    route: 'POST /v15/merchants/{merchant_id}/gift_card_value_additions',
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check + QR code -> user (the QR code is the only user reference) + the user's gift card balance (its key needs the user; its version makes the response's old/new value exact) + one transaction (docs/data-model.md, Access patterns per request)",
    },
    async prepare({ world, runId }) {
      const nextUser = roundRobin(world.users);
      let sequence = 0;
      return () => ({
        method: 'POST',
        path: `/v15/merchants/${world.merchantId}/gift_card_value_additions`,
        headers: auth(world.merchantToken),
        body: {
          gift_card_value_addition: {
            payment_token_data: nextUser().paymentTokenData,
            value_amount: 1_000,
            type: 'gift_card',
            external_identifier: `bench-${runId}-${sequence++}`,
          },
        },
      });
    },
  },
  {
    id: 'proposed-order',
    title: 'Proposed order (in-store)',
    route: 'POST /v15/proposed_orders',
    needs: ['locationId'],
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale:
        "token check with one BatchGetItem (location, QR code -> user; keyed by the body, sent beside it) + one BatchGetItem (the user's credit for discount_amount, the user's promoted card; keys need the user) + one write of the proposed order",
    },
    async prepare({ world }) {
      const nextUser = roundRobin(world.users);
      return () => ({ method: 'POST', path: '/v15/proposed_orders', headers: auth(world.merchantToken), body: proposedOrderBody(world, nextUser()) });
    },
  },
  {
    id: 'completed-order',
    title: 'Completed order (in-store, card charge)',
    route: 'POST /v15/completed_orders',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 9,
      transactions: 1,
      rationale:
        "the order's integer id beside the reads (one UpdateItem on one of 16 counter shards: an id the C# SDK reads as int32, no hot item) + token check + one BatchGetItem (proposed order, QR code, location, merchant) + the customer's settlement lease (one order of a customer settles at a time, so the card is charged once per order; released inside the transaction) + the settlement lease (must precede the card charge) + one BatchGetItem (balances, user, promoted card) + loyalty's two Queries (the merchant's campaigns, the user's loyalty there) + one transaction; an order that earns a reward adds the reward-id counter",
    },
    onResponse(world, status, body) {
      if (status !== 200) return;
      const uuid = (JSON.parse(body) as { order?: { uuid?: unknown } }).order?.uuid;
      if (typeof uuid === 'string') world.completedOrders.push(uuid);
    },
    async prepare({ world, api, count }) {
      const nextUser = roundRobin(world.users);
      const proposed = await createMany(count, 8, async () => {
        const user = nextUser();
        return { user, uuid: await proposeOrder(api, world, user) };
      });
      return () => {
        const order = proposed.pop();
        if (!order) throw new Error('ran out of proposed orders');
        return { method: 'POST', path: '/v15/completed_orders', headers: auth(world.merchantToken), body: completedOrderBody(world, order.user, order.uuid) };
      };
    },
  },
  {
    id: 'remote-check-finalise',
    title: 'Remote check finalised by the POS (card charge)',
    route: 'POST /v15/checks/{uuid}/orders',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 9,
      transactions: 1,
      rationale:
        "the order's integer id beside the reads (one UpdateItem on one of 16 counter shards: an id the C# SDK reads as int32, no hot item) + token check + one BatchGetItem (the check, which carries its location and the customer's promoted card, and the merchant) + the customer's settlement lease + the settlement lease on the check (must precede the card charge) + one BatchGetItem (balances, user, promoted card) + loyalty's two Queries + one transaction: the completed order's count",
    },
    async prepare({ world, api, count }) {
      const nextUser = roundRobin(world.users);
      // Checks published by the POS and claimed by a customer each, through the API.
      const claimed = await createMany(count, 8, async () => {
        const published = await api.call('PUT', '/v15/checks', {
          token: world.merchantToken,
          body: publishedCheckBody(world),
        });
        const uuid = published.body?.check?.uuid;
        if (published.status !== 200 || typeof uuid !== 'string')
          throw new Error(`publishing a check answered ${published.status} ${JSON.stringify(published.body).slice(0, 300)}`);
        const claim = await api.call('POST', `/v15/checks/${uuid}/orders`, { token: nextUser().token, body: {} });
        if (claim.status !== 200) throw new Error(`claiming a check answered ${claim.status} ${JSON.stringify(claim.body).slice(0, 300)}`);
        return uuid;
      });
      return () => {
        const uuid = claimed.pop();
        if (!uuid) throw new Error('ran out of claimed checks');
        return {
          method: 'POST',
          path: `/v15/checks/${uuid}/orders`,
          headers: auth(world.merchantToken),
          body: { order: { applied_discount_amount: null, tax_amount: TAX_AMOUNT, spend_amount: SPEND_AMOUNT } },
        };
      };
    },
  },
  {
    id: 'refund',
    title: 'Refund an order',
    route: 'POST /v14/orders/{uuid}/refund',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check + one BatchGetItem (order, merchant, loyalty's record of the order) + the user's loyalty at the merchant (Query: rewards and progress to undo) + one transaction",
    },
    async prepare({ world, api, count }) {
      // Orders the completed-order scenario completed, topped up through the API.
      const completed = world.completedOrders.splice(0, count);
      if (completed.length < count) completed.push(...(await completeOrders(api, world, world.users, count - completed.length)));
      return () => {
        const uuid = completed.pop();
        if (!uuid) throw new Error('ran out of completed orders');
        return { method: 'POST', path: `/v14/orders/${uuid}/refund`, headers: auth(world.merchantToken), body: { refund: {} } };
      };
    },
  },
  {
    id: 'one-step-order',
    title: 'One-step order (POST /v15/orders, card charge)',
    route: 'POST /v15/orders',
    needs: ['locationId'],
    minimum: {
      roundTrips: 9,
      transactions: 2,
      rationale:
        "the order's integer id beside the reads (one UpdateItem on one of 16 counter shards: an id the C# SDK reads as int32, no hot item) + token check with one BatchGetItem (location, QR code; keyed by the body, sent beside it) + one transaction creating the order's own source (a proposed order) already claimed with the customer's lease, and beside it one BatchGetItem (the merchant, the user: its promoted card) + the settlement from its reads: balances, loyalty's two Queries, one transaction (docs/pos.md)",
    },
    async prepare({ world }) {
      const nextUser = roundRobin(world.users);
      return () => ({
        method: 'POST',
        path: '/v15/orders',
        headers: auth(world.merchantToken),
        body: oneStepOrderBody(world, nextUser()),
      });
    },
  },
  {
    id: 'gift-card-value-order',
    title: 'Gift card value order (A17, card charge)',
    route: 'POST /v15/users/gift_card_value_orders',
    minimum: {
      roundTrips: 5,
      transactions: 1,
      rationale:
        "token check + one BatchGetItem (the merchant, the app's card charge limits and the buyer's two month counters, the recipient's login by email, the gifts held for that email, the buyer's user item) + beside it the buyer's gift order rate window (UpdateItem: 10 an hour) + the buyer's promoted card (its key needs the user item) + one transaction (the order, the buyer's card charge, the recipient's gift card load or held gift, the month counters); the recipient's email is not a DynamoDB call",
    },
    async prepare({ world }) {
      // Each pooled user buys $10 for the user after it (the seed lifts the bench app's charge limits). A buyer
      // may place GIFT_CARD_ORDERS_PER_BUYER.limit orders an hour: the bench forgives its window (the same
      // one UpdateItem per request either way) before it fills, so every measured request is a real order.
      await Promise.all(world.users.map((user) => clearWindow(GIFT_CARD_ORDERS_PER_BUYER, String(user.userId))));
      const sinceForgiven = new Map<number, number>();
      let index = 0;
      return () => {
        const buyer = world.users[index % world.users.length]!;
        const recipient = world.users[(index + 1) % world.users.length]!;
        index++;
        const placed = (sinceForgiven.get(buyer.userId) ?? 0) + 1;
        sinceForgiven.set(buyer.userId, placed);
        if (placed >= GIFT_CARD_ORDERS_PER_BUYER.limit / 2) {
          sinceForgiven.set(buyer.userId, 0);
          clearWindow(GIFT_CARD_ORDERS_PER_BUYER, String(buyer.userId)).catch((error: unknown) =>
            console.error('bench: forgiving a gift order window failed', error),
          );
        }
        return {
          method: 'POST',
          path: '/v15/users/gift_card_value_orders',
          headers: auth(buyer.token),
          body: { gift_card_value_order: { merchant_id: world.merchantId, recipient_email: recipient.email, value_amount: 1_000 } },
        };
      };
    },
  },
  {
    id: 'merchant-funded-credit',
    title: 'Merchant-funded credit at a location (POS credit check)',
    route: 'GET /v15/locations/{location_id}/merchant_funded_credit',
    needs: ['locationId'],
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale:
        'token check + one BatchGetItem (location, QR code -> user) + one BatchGetItem of the available credit (credit and gift card balances, expiring grants; keys need the user)',
    },
    async prepare({ world }) {
      const nextUser = roundRobin(world.users);
      return () => ({
        method: 'GET',
        path: `/v15/locations/${world.locationId}/merchant_funded_credit?payment_token_data=${nextUser().paymentTokenData}`,
        headers: auth(world.merchantToken),
      });
    },
  },
  {
    id: 'gift-card-removal',
    title: 'Gift card value removal (by amount)',
    route: 'POST /v15/merchants/{merchant_id}/gift_card_value_removals',
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale: "token check + QR code -> user + the user's gift card balance (its version makes old/new value exact) + one transaction",
    },
    async prepare({ world, api, count }) {
      // Enough value on every user's card for its share of the removals (1 cent each).
      const perUser = Math.max(1_000, Math.ceil(count / world.users.length));
      await createMany(world.users.length, 8, (index) =>
        api.call('POST', `/v15/merchants/${world.merchantId}/gift_card_value_additions`, {
          token: world.merchantToken,
          body: { gift_card_value_addition: { payment_token_data: world.users[index]!.paymentTokenData, value_amount: Math.min(50_000, perUser) } },
        }),
      );
      const nextUser = roundRobin(world.users);
      return () => ({
        method: 'POST',
        path: `/v15/merchants/${world.merchantId}/gift_card_value_removals`,
        headers: auth(world.merchantToken),
        body: { gift_card_value_removal: { payment_token_data: nextUser().paymentTokenData, value_amount: 1, uuid: null } },
      });
    },
  },
  {
    id: 'detached-refund',
    title: 'Detached refund (credit not tied to an order)',
    route: 'POST /v15/detached_refunds',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check + one BatchGetItem (location, merchant, identifier record, QR code) + one BatchGetItem (card account, running total, user, the merchant's daily credit budget counter; keys need the user) + one transaction (its ADD on that counter makes one merchant's concurrent detached refunds, grants and adjustments take turns)",
    },
    async prepare({ world, api, count }) {
      const nextUser = await detachedRefundCustomers(api, world, count);
      return () => ({
        method: 'POST',
        path: '/v15/detached_refunds',
        headers: auth(world.merchantToken),
        body: {
          detached_refund: {
            credit_amount: 1,
            location_id: world.locationId,
            payment_token_data: nextUser().paymentTokenData,
            cashier: 'Bench',
            register: '1',
            manager_confirmation: null,
          },
        },
      });
    },
  },
  {
    id: 'user-orders-page',
    title: "User's orders (page 1)",
    route: 'GET /v15/apps/orders',
    needs: ['locationId'],
    minimum: READ_MINIMUM,
    async prepare({ world, api, quick }) {
      // A full first page (and a next link) for a few users, so every request returns a full page.
      const readers = world.users.slice(0, quick ? 2 : 4);
      await completeOrders(api, world, readers, readers.length * 11);
      const nextUser = roundRobin(readers);
      return () => ({ method: 'GET', path: '/v15/apps/orders', headers: auth(nextUser().token) });
    },
  },
  {
    id: 'order-ahead-menu',
    title: 'Order-ahead menu by id (menu_url)',
    route: 'GET /v15/order_ahead/menus/{menu_id}',
    needs: ['menuId'],
    minimum: { roundTrips: 1, transactions: 0, rationale: "no token; one Query of the menu's own entry in gsi1 (the menu by its id)" },
    prepare: anonymousGets((world) => `/v15/order_ahead/menus/${world.menuId}`),
  },
  {
    id: 'order-ahead-suggested',
    title: 'Suggested order-ahead orders (past and popular carts)',
    route: 'GET /v15/order_ahead/orders/suggested',
    needs: ['menuItemId'],
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale:
        "token check + one BatchGetItem (the user's recent carts, the location's popular carts) + one BatchGetItem (the carts' locations and menus, to drop what no longer fits); the app is kept in memory",
    },
    async prepare({ world, api, quick }) {
      // Each reader has completed an order ahead (a past cart at the location, and a popular one).
      const readers = world.users.slice(0, quick ? 2 : 4);
      for (const user of readers) await completeOrderAhead(api, world, user);
      const nextUser = roundRobin(readers);
      return () => ({ method: 'GET', path: `/v15/order_ahead/orders/suggested?location_id=${world.locationId}`, headers: auth(nextUser().token) });
    },
  },
  {
    id: 'delivery-location',
    title: 'Delivery location of a saved address',
    route: 'GET /v15/user_addresses/{id}/delivery_location',
    needs: ['deliveryAddresses'],
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale:
        "token check + the address (its coordinates) + the app's locations that deliver (an index Query per stream) + one BatchGetItem of their menus; the app is kept in memory",
    },
    async prepare({ world }) {
      const next = roundRobin(world.deliveryAddresses!);
      return () => {
        const { user, addressId } = next();
        return { method: 'GET', path: `/v15/user_addresses/${addressId}/delivery_location`, headers: auth(user.token) };
      };
    },
  },
  {
    id: 'order-ahead-complete',
    title: 'Order-ahead completion (POST order_completion_url)',
    route: 'POST /v15/order_ahead/orders/{uuid}/complete',
    needs: ['menuItemId'],
    consumable: true,
    minimum: {
      roundTrips: 2,
      transactions: 0,
      rationale:
        "token check + the order's conditional transition to submitting (it holds only for the caller's valid order; when it does not, the order as it stood comes back with the failure); the charge and the provider run in the completion workflow, after the 202",
    },
    expectedStatuses: [202],
    holdsWorkflows: true,
    async prepare({ world, api, count }) {
      const nextUser = roundRobin(world.users);
      const valid = await createMany(count, 8, async () => {
        const user = nextUser();
        return { user, completionUrl: await validOrderAhead(api, world, user) };
      });
      return () => {
        const order = valid.pop();
        if (!order) throw new Error('ran out of valid order-ahead orders');
        return { method: 'POST', path: order.completionUrl, headers: auth(order.user.token) };
      };
    },
  },
  {
    id: 'order-ahead-completion-poll',
    title: 'Completed order-ahead order (poll of the completion order_url)',
    route: 'GET /v15/order_ahead/orders/{uuid}/complete',
    needs: ['menuItemId'],
    minimum: READ_MINIMUM,
    async prepare({ world, api, quick }) {
      const readers = world.users.slice(0, quick ? 2 : 4);
      const completed = [];
      for (const user of readers) completed.push({ user, orderUrl: await completeOrderAhead(api, world, user) });
      const next = roundRobin(completed);
      return () => {
        const { user, orderUrl } = next();
        return { method: 'GET', path: orderUrl, headers: auth(user.token) };
      };
    },
  },
  {
    id: 'webhook-endpoint-create',
    title: 'Create a webhook endpoint (app token)',
    route: 'POST /v15/webhook_endpoints',
    consumable: true,
    minimum: { roundTrips: 2, transactions: 1, rationale: "token check + one transaction: the endpoint and the audience's endpoint count, guarded at 10" },
    async prepare({ world, count }) {
      // At most 10 endpoints per audience: one app per 10 requests.
      const apps = await benchApps(world, Math.ceil(count / MAX_BENCH_ENDPOINTS));
      let next = 0;
      return () => {
        const index = next++;
        return {
          method: 'POST',
          path: '/v15/webhook_endpoints',
          headers: auth(apps[Math.floor(index / MAX_BENCH_ENDPOINTS)]!.token),
          body: { webhook_endpoint: { url: `https://hooks.example.com/bench/${index}`, events: ['credit_card.created', 'order_ahead.completed'] } },
        };
      };
    },
  },
  {
    id: 'webhook-endpoints-list',
    title: "List the caller's webhook endpoints",
    route: 'GET /v15/webhook_endpoints',
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the audience's endpoints (at most 10)" },
    async prepare({ world }) {
      const [app] = await benchApps(world, 1);
      await benchEndpoints(app!.appId, 3);
      return () => ({ method: 'GET', path: '/v15/webhook_endpoints', headers: auth(app!.token) });
    },
  },
  {
    id: 'webhook-endpoint-delete',
    title: 'Delete a webhook endpoint',
    route: 'DELETE /v15/webhook_endpoints/{id}',
    consumable: true,
    minimum: { roundTrips: 2, transactions: 1, rationale: 'token check + one transaction: the delete, guarded by the owner (so no read first), and the count' },
    expectedStatuses: [204],
    async prepare({ world, count }) {
      const apps = await benchApps(world, Math.ceil(count / MAX_BENCH_ENDPOINTS));
      const made = (
        await createMany(apps.length, 4, async (index) =>
          (await benchEndpoints(apps[index]!.appId, MAX_BENCH_ENDPOINTS)).map((id) => ({ id, token: apps[index]!.token })),
        )
      ).flat();
      return eachOnce(made, 'webhook endpoints to delete', (endpoint) => ({
        method: 'DELETE',
        path: `/v15/webhook_endpoints/${endpoint.id}`,
        headers: auth(endpoint.token),
      }));
    },
  },
  {
    id: 'webhook-secret-roll',
    title: "Roll a webhook endpoint's secret",
    route: 'POST /v15/webhook_endpoints/{id}/secrets',
    minimum: { roundTrips: 3, transactions: 1, rationale: 'token check + the endpoint (the secrets the roll keeps) + one transaction guarded by them' },
    async prepare({ world }) {
      // 32 endpoints in turn: 16 concurrent rolls never meet on one endpoint (that would be the designed 409).
      const apps = await benchApps(world, 4);
      const endpoints = (await Promise.all(apps.map(async ({ appId, token }) => (await benchEndpoints(appId, 8)).map((id) => ({ id, token }))))).flat();
      const next = roundRobin(endpoints);
      return () => {
        const { id, token } = next();
        return { method: 'POST', path: `/v15/webhook_endpoints/${id}/secrets`, headers: auth(token) };
      };
    },
  },
  {
    id: 'webhook-deliveries-list',
    title: "List a webhook endpoint's latest deliveries",
    route: 'GET /v15/webhook_endpoints/{id}/deliveries',
    minimum: { roundTrips: 3, transactions: 0, rationale: "token check + the endpoint (the caller's own) + one Query of its latest deliveries" },
    async prepare({ world }) {
      const [app] = await benchApps(world, 1);
      const [endpointId] = await benchEndpoints(app!.appId, 1);
      // A full answer, as a busy endpoint has: one delivery record per event, as the delivery worker writes them.
      const now = Date.now();
      await Promise.all(
        Array.from({ length: DELIVERIES_LISTED }, (_, index) =>
          recordAttempt({
            endpointId: endpointId!,
            event: { event_id: `evt_bench_${String(index).padStart(4, '0')}`, type: 'credit_card.created' },
            state: 'delivered',
            attempt: 1,
            status: 200,
            now: now - index * 1000,
          }),
        ),
      );
      return () => ({ method: 'GET', path: `/v15/webhook_endpoints/${endpointId}/deliveries`, headers: auth(app!.token) });
    },
  },
  // Management reports and exports (docs/merchant-api.md, "Reports and exports"), today's range, an owner's token.
  {
    id: 'merchant-reports-daily',
    title: "A merchant's daily report (aggregates the stream keeps)",
    route: 'GET /v15/merchants/{merchant_id}/reports/daily',
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale: "token check + one Query of the range's day rows (from the first of its month) + one Query of the months before it, in parallel",
    },
    prepare: ownerGets((world, range) => `/v15/merchants/${world.merchantId}/reports/daily?${range}`),
  },
  {
    id: 'merchant-exports-orders',
    title: "Export a merchant's orders as CSV",
    route: 'GET /v15/merchants/{merchant_id}/exports/orders.csv',
    minimum: {
      roundTrips: 13,
      transactions: 0,
      rationale:
        "token check + the merchant's locations (one Query) + one Query of each location's orders in the range (the exports' merchant has 11, its 400 orders at one of them: one page, about 0.65 MB; a location's orders take one more page per MB)",
    },
    prepare: ownerGets((world, range) => `/v15/merchants/${world.merchantId}/exports/orders.csv?${range}`, exportWorld, EXPORT_ORDERS),
  },
  {
    id: 'merchant-exports-ledger',
    title: "Export a merchant's ledger as CSV",
    route: 'GET /v15/merchants/{merchant_id}/exports/ledger.csv',
    minimum: {
      roundTrips: 2,
      transactions: 0,
      rationale:
        "token check + one Query of the merchant's ledger index per month the range touches (one; the entries of the exports' merchant's 400 orders are one page, about 0.3 MB; one more page per MB)",
    },
    prepare: ownerGets((world, range) => `/v15/merchants/${world.merchantId}/exports/ledger.csv?${range}`, exportWorld),
  },
  {
    id: 'events-list',
    title: "List the caller's events (an app: its users' cards)",
    route: 'GET /v15/events',
    minimum: {
      roundTrips: 10,
      transactions: 0,
      rationale:
        "token check + one Query page from each of the audience's 8 event index shards and its pre-sharding partition, the 9 in parallel (one round trip of wall time; docs/scale.md)",
    },
    async prepare({ world }) {
      // The seed added a card for each bench user: credit_card.created events of the bench app.
      const token = await appToken(world.appId);
      return () => ({ method: 'GET', path: '/v15/events', headers: auth(token) });
    },
  },
  {
    id: 'audit-log-list',
    title: "List a merchant's audit log (owner)",
    route: 'GET /v15/merchants/{merchant_id}/audit_log',
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the merchant's audit partition, newest first (50 entries)" },
    prepare: staffGets('owner', (world) => `/v15/merchants/${world.merchantId}/audit_log`),
  },
  {
    id: 'audit-log-export',
    title: "Export a month of a merchant's audit log as CSV (owner)",
    route: 'GET /v15/merchants/{merchant_id}/audit_log.csv',
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the range in the merchant's audit partition (at most 500 rows)" },
    async prepare({ world }) {
      const token = await benchStaffToken(world, 'owner');
      const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      return () => ({ method: 'GET', path: `/v15/merchants/${world.merchantId}/audit_log.csv?from=${from}&to=${to}`, headers: auth(token) });
    },
  },
  {
    id: 'manager-code-update',
    title: "Set one's own manager code (manager)",
    route: 'PUT /v15/merchants/{merchant_id}/staff/me/manager_code',
    expectedStatuses: [204],
    consumable: true,
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale:
        "token check + one BatchGetItem (the new code's holder, the staff member's current code) + one transaction (new code, old code removed, pointer, audit entry)",
    },
    async prepare({ world, count }) {
      // A merchant of its own (staff codes make the bench merchant's refunds ask for one), and a manager per request,
      // each setting their first code (a fresh 8-digit one): no two requests race on one pointer.
      const { createMerchant } = await import('#shared/domain/merchants/merchants.ts');
      const merchant = await createMerchant({ name: 'Bench codes', username: `bench-codes-${randomBytes(6).toString('hex')}`, password: BENCH_PASSWORD });
      const tokens = await createMany(count, 8, () => benchStaffToken(world, 'manager', merchant.merchant_id));
      const first = 10_000_000 + (Number.parseInt(randomBytes(2).toString('hex'), 16) % 8_000) * 10_000;
      let next = 0;
      return () => {
        const index = next++;
        return {
          method: 'PUT',
          path: `/v15/merchants/${merchant.merchant_id}/staff/me/manager_code`,
          headers: auth(tokens[index % tokens.length]!),
          body: { manager_code: { code: String(first + index) } },
        };
      };
    },
  },
  {
    id: 'webhook-replay',
    title: 'Replay events to a webhook endpoint',
    route: 'POST /v15/webhook_endpoints/{id}/replays',
    minimum: {
      roundTrips: 13,
      transactions: 0,
      rationale:
        "token check + the endpoint (its event types) + the replay limit's two windows (the day's, then the quarter hour's, each a conditional UpdateItem: the second is made only once the first admits, and a refusal by it gives the day's back) + one Query page of the events after `after` from each of the 8 index shards and the pre-sharding partition, in parallel (a page evaluates up to 1000 events or 1 MB; events of types the endpoint does not take are read and dropped, one more page per ~1 MB of them); queueing is an SQS call, not DynamoDB",
    },
    consumable: true,
    async prepare({ world, api, count }) {
      // A real receiver on loopback (the bench server runs the local delivery queue, as npm start).
      const receiver = createServer((request, response) => request.resume().on('end', () => response.writeHead(200).end()));
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiver.unref();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench-hooks`;
      return eachOnce(await benchReplayTargets(world, api, url, count), 'webhook endpoints with replays left', (target) => ({
        method: 'POST',
        path: `/v15/webhook_endpoints/${target.endpointId}/replays`,
        headers: auth(target.token),
        body: { replay: { after: target.after } },
      }));
    },
  },
  {
    id: 'staff-list',
    title: "List a merchant's staff (management API)",
    route: 'GET /v15/merchants/{merchant_id}/staff',
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the merchant's staff partition (a page of at most 50)" },
    async prepare({ world }) {
      const [merchant] = await benchStaffMerchants(world, 1, 20);
      return () => ({ method: 'GET', path: `/v15/merchants/${merchant!.merchantId}/staff`, headers: auth(merchant!.ownerToken) });
    },
  },
  {
    id: 'staff-me-show',
    title: 'Who am I (management API)',
    route: 'GET /v15/merchants/{merchant_id}/staff/me',
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + the staff member (one GetItem)' },
    async prepare({ world }) {
      const [merchant] = await benchStaffMerchants(world, 1, 0);
      return () => ({ method: 'GET', path: `/v15/merchants/${merchant!.merchantId}/staff/me`, headers: auth(merchant!.ownerToken) });
    },
  },
  {
    id: 'staff-create',
    title: 'Invite a staff member (management API)',
    route: 'POST /v15/merchants/{merchant_id}/staff',
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale: 'token check + the staff id and the person id (two counters, in parallel) + one transaction: login, member, roster, invite mail',
    },
    async prepare({ world, runId, count }) {
      const merchants = await benchStaffMerchants(world, Math.ceil(count / BENCH_STAFF_PER_MERCHANT), 0);
      let next = 0;
      return () => {
        const index = next++;
        const merchant = merchants[Math.floor(index / BENCH_STAFF_PER_MERCHANT)]!;
        return {
          method: 'POST',
          path: `/v15/merchants/${merchant.merchantId}/staff`,
          headers: auth(merchant.ownerToken),
          body: { staff: { email: `bench-${runId}-${index}@example.com`, name: `Bench ${index}`, role: 'staff' } },
        };
      };
    },
  },
  {
    id: 'staff-update',
    title: 'Rename a staff member (management API)',
    route: 'PUT /v15/merchants/{merchant_id}/staff/{staff_id}',
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: 'token check + the staff member + one transaction (a name change revokes nothing; a role change adds the revocation: a Query and a delete)',
    },
    async prepare({ world }) {
      const [merchant] = await benchStaffMerchants(world, 1, 1);
      let next = 0;
      return () => ({
        method: 'PUT',
        path: `/v15/merchants/${merchant!.merchantId}/staff/${merchant!.staffIds[0]}`,
        headers: auth(merchant!.ownerToken),
        body: { staff: { name: `Renamed ${next++}` } },
      });
    },
  },
  {
    id: 'staff-delete',
    title: 'Remove a staff member (management API)',
    route: 'DELETE /v15/merchants/{merchant_id}/staff/{staff_id}',
    consumable: true,
    expectedStatuses: [204],
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check + the staff member and their manager code's pointer (one BatchGetItem) + one transaction (member, login, roster, their code if any) + the Query of their tokens to revoke (none here)",
    },
    async prepare({ world, count }) {
      const merchants = await benchStaffMerchants(world, Math.ceil(count / BENCH_STAFF_PER_MERCHANT), BENCH_STAFF_PER_MERCHANT);
      const members = merchants.flatMap((merchant) => merchant.staffIds.map((staffId) => ({ staffId, merchant })));
      return eachOnce(members, 'staff members to remove', (member) => ({
        method: 'DELETE',
        path: `/v15/merchants/${member.merchant.merchantId}/staff/${member.staffId}`,
        headers: auth(member.merchant.ownerToken),
      }));
    },
  },
  // Management API: a merchant's locations as it sets them (docs/merchant-api.md, "Locations"), an owner's token.
  {
    id: 'location-settings-list',
    title: "List a merchant's locations, hidden ones included (management API)",
    route: 'GET /v15/merchants/{merchant_id}/all_locations',
    minimum: {
      roundTrips: 2,
      transactions: 0,
      rationale: "token check + one Query of the merchant's locations index (a page of at most 50; the bench merchant has 10)",
    },
    prepare: staffGets('owner', (world) => `/v15/merchants/${world.merchantId}/all_locations`),
  },
  {
    id: 'location-settings-show',
    title: 'A location as its merchant sets it (management API)',
    route: 'GET /v15/merchants/{merchant_id}/locations/{location_id}',
    needs: ['locationId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + the location (one GetItem)' },
    prepare: staffGets('staff', (world) => `/v15/merchants/${world.merchantId}/locations/${world.locationId!}`),
  },
  {
    id: 'location-settings-create',
    title: 'Create a location (management API)',
    route: 'POST /v15/merchants/{merchant_id}/locations',
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "token check + the merchant (its name for the location's copy) and the location id (a counter), in parallel + one transaction: location, change-feed row, audit entry",
    },
    async prepare({ world }) {
      // A merchant of its own: the bench merchant's location lists keep their size.
      const merchantId = (await benchLocationsMerchant(0)).merchantId;
      const token = await benchStaffToken(world, 'owner', merchantId);
      let next = 0;
      return () => {
        const index = next++;
        return {
          method: 'POST',
          path: `/v15/merchants/${merchantId}/locations`,
          headers: auth(token),
          body: {
            location: {
              name: `Bench new ${index}`,
              ...benchLocationPlace(index),
              hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], opens: '07:00', closes: '19:00' }],
            },
          },
        };
      };
    },
  },
  {
    id: 'location-settings-update',
    title: "Change a location's ready-time estimate (management API)",
    route: 'PUT /v15/merchants/{merchant_id}/locations/{location_id}',
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: 'token check + the location (one GetItem) + one transaction: the location (on its version), its change-feed row moved, the audit entry',
    },
    async prepare({ world }) {
      // Locations of their own (the bench merchant's hours and settings stay as the order scenarios need them), taken
      // in turn so that no two requests in flight change one location (each would win or lose the version race).
      const { merchantId, locationIds } = await benchLocationsMerchant(BENCH_UPDATED_LOCATIONS);
      const token = await benchStaffToken(world, 'manager', merchantId);
      let next = 0;
      return () => {
        const index = next++;
        return {
          method: 'PUT',
          path: `/v15/merchants/${merchantId}/locations/${locationIds[index % locationIds.length]!}`,
          headers: auth(token),
          // Consecutive requests to one location differ (it would otherwise answer without a write).
          body: { location: { shown: true, hours: [{ days: ['sat'], opens: '09:00', closes: `${String(10 + (index % 13)).padStart(2, '0')}:00` }] } },
        };
      };
    },
  },
  {
    id: 'location-image-uploads-create',
    title: "Start an upload of a location's picture (management API)",
    route: 'POST /v15/merchants/{merchant_id}/locations/{location_id}/image_uploads',
    expectedStatuses: [201],
    consumable: true,
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: 'token check + the location (one GetItem) + one transaction: the pending upload; the presigned POST is signed in the function, no S3 call',
    },
    async prepare({ world }) {
      const { merchantId, locationIds } = await benchLocationsMerchant(1);
      const token = await benchStaffToken(world, 'manager', merchantId);
      return () => ({
        method: 'POST',
        path: `/v15/merchants/${merchantId}/locations/${locationIds[0]!}/image_uploads`,
        headers: auth(token),
        body: { image_upload: { content_type: 'image/jpeg' } },
      });
    },
  },
  {
    id: 'location-image-uploads-show',
    title: "An upload of a location's picture: its state (management API)",
    route: 'GET /v15/merchants/{merchant_id}/locations/{location_id}/image_uploads/{upload_id}',
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + the upload (one GetItem)' },
    async prepare({ world, api }) {
      const { merchantId, locationIds } = await benchLocationsMerchant(1);
      const token = await benchStaffToken(world, 'manager', merchantId);
      const path = `/v15/merchants/${merchantId}/locations/${locationIds[0]!}/image_uploads`;
      const created = await api.call('POST', path, { token, body: { image_upload: { content_type: 'image/jpeg' } } });
      if (created.status !== 201) throw new Error(`image upload: ${created.status} ${JSON.stringify(created.body)}`);
      return () => ({ method: 'GET', path: `${path}/${created.body.image_upload.id as string}`, headers: auth(token) });
    },
  },
  // Management API: a merchant's campaigns (docs/merchant-api.md "Campaigns"), an owner's token.
  {
    id: 'managed-campaigns-list',
    title: "List a merchant's campaigns (management API)",
    route: 'GET /v15/merchants/{merchant_id}/all_campaigns',
    needs: ['campaignId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: "token check + one Query of the merchant's catalog (gsi1, a page of at most 50)" },
    prepare: staffGets('owner', (world) => `/v15/merchants/${world.merchantId}/all_campaigns`),
  },
  {
    id: 'managed-campaigns-show',
    title: "One of a merchant's campaigns (management API)",
    route: 'GET /v15/merchants/{merchant_id}/campaigns/{campaign_id}',
    needs: ['campaignId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + the campaign (one GetItem)' },
    prepare: staffGets('owner', (world) => `/v15/merchants/${world.merchantId}/campaigns/${world.campaignId}`),
  },
  // Management API: a merchant's orders (docs/merchant-api.md "Orders"): reads by a staff-role member, refunds by a manager.
  {
    id: 'managed-orders-list',
    title: "A location's orders of one day (management API)",
    route: 'GET /v15/merchants/{merchant_id}/orders',
    needs: ['locationId'],
    minimum: {
      roundTrips: 3,
      transactions: 0,
      rationale: "token check + the location (its merchant) + one Query of the day's orders in the location's partition (gsi2, a page of at most 50)",
    },
    prepare: staffGets(
      'staff',
      (world) => `/v15/merchants/${world.merchantId}/orders?location_id=${world.locationId!}&day=${new Date().toISOString().slice(0, 10)}`,
    ),
  },
  {
    id: 'managed-orders-show',
    title: "One of a merchant's orders in detail (management API)",
    route: 'GET /v15/merchants/{merchant_id}/orders/{uuid}/details',
    needs: ['locationId'],
    minimum: { roundTrips: 2, transactions: 0, rationale: 'token check + the order (one GetItem)' },
    async prepare(context) {
      const [uuid] = await completeOrders(context.api, context.world, context.world.users, 1);
      return staffGets('staff', (world) => `/v15/merchants/${world.merchantId}/orders/${uuid!}/details`)(context);
    },
  },
  {
    id: 'managed-orders-refund',
    title: 'Refund an order (management API, a manager)',
    route: 'POST /v15/merchants/{merchant_id}/orders/{uuid}/refund',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "as the POS's refund: token check + one BatchGetItem (order, merchant, loyalty's record of the order) + the user's loyalty at the merchant + one transaction",
    },
    async prepare({ api, runId, count }) {
      // A world of its own: the bench merchant's customers hold detached credit from the detached-refund scenario
      // before it, and a refund of such a customer reads their accounts and commits on a second try (refunds.ts
      // `detachedCover`). These customers have none, as almost every customer, and as the POS refund's had.
      const world = await seedWorld(`${runId}-refunds`);
      if (world.locationId === undefined) throw new Error(`the refunds' merchant has no location (${JSON.stringify(world.problems)})`);
      const completed = await completeOrders(api, world, world.users, count);
      const token = await benchStaffToken(world, 'manager');
      return eachOnce(completed, 'completed orders', (uuid) => ({
        method: 'POST',
        path: `/v15/merchants/${world.merchantId}/orders/${uuid}/refund`,
        headers: auth(token),
        body: { refund: {} },
      }));
    },
  },
  {
    id: 'managed-detached-refund',
    title: 'Detached refund (management API, a manager)',
    route: 'POST /v15/merchants/{merchant_id}/detached_refunds',
    needs: ['locationId'],
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 1,
      rationale:
        "as the POS's detached refund: token check + two BatchGetItems (location, merchant, QR code; then the user's accounts and the merchant's daily credit budget) + one transaction",
    },
    async prepare({ world, api, count }) {
      const nextUser = await detachedRefundCustomers(api, world, count);
      const token = await benchStaffToken(world, 'manager');
      return () => ({
        method: 'POST',
        path: `/v15/merchants/${world.merchantId}/detached_refunds`,
        headers: auth(token),
        body: {
          detached_refund: { credit_amount: 1, location_id: world.locationId, payment_token_data: nextUser().paymentTokenData, manager_confirmation: null },
        },
      });
    },
  },
  {
    id: 'managed-campaigns-create',
    title: 'Create a spend campaign (management API)',
    route: 'POST /v15/merchants/{merchant_id}/campaigns',
    consumable: true,
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: "token check + the campaign id (a counter) + one transaction: campaign, the merchant's campaign count, audit entry",
    },
    async prepare({ world, count }) {
      // Fresh merchants: a merchant creates at most 200 campaigns.
      const merchants = await benchCampaignMerchants(world, Math.ceil(count / BENCH_CAMPAIGNS_PER_MERCHANT), 0);
      let next = 0;
      return () => {
        const index = next++;
        const merchant = merchants[Math.floor(index / BENCH_CAMPAIGNS_PER_MERCHANT)]!;
        return {
          method: 'POST',
          path: `/v15/merchants/${merchant.merchantId}/campaigns`,
          headers: auth(merchant.ownerToken),
          body: { campaign: { kind: 'spend', title: `Bench spend ${index}`, required_spend_amount: 5000, earn_amount: 500 } },
        };
      };
    },
  },
  {
    id: 'managed-campaigns-update',
    title: 'Rename a campaign (management API)',
    route: 'PUT /v15/merchants/{merchant_id}/campaigns/{campaign_id}',
    consumable: true,
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: 'token check + the campaign (one GetItem) + one transaction: campaign (merchant and version guard), audit entry',
    },
    async prepare({ world, count }) {
      // One campaign per request: edits of one campaign at once would race on its version (409 by design).
      return eachOnce(await benchCampaigns(world, count), 'campaigns to rename', (campaign, index) => ({
        method: 'PUT',
        path: campaign.path,
        headers: auth(campaign.ownerToken),
        body: { campaign: { title: `Renamed ${index + 1}` } },
      }));
    },
  },
  {
    id: 'managed-campaigns-close',
    title: 'Close a campaign at once (management API)',
    route: 'POST /v15/merchants/{merchant_id}/campaigns/{campaign_id}/close',
    consumable: true,
    minimum: {
      roundTrips: 3,
      transactions: 1,
      rationale: 'token check + the campaign (one GetItem) + one transaction: campaign (merchant and version guard), audit entry',
    },
    async prepare({ world, count }) {
      return eachOnce(await benchCampaigns(world, count), 'campaigns to close', (campaign) => ({
        method: 'POST',
        path: `${campaign.path}/close`,
        headers: auth(campaign.ownerToken),
      }));
    },
  },
  // Management API: a location's order-ahead menu draft (docs/merchant-api.md "Menus").
  {
    id: 'menu-drafts-show',
    title: "A location's menu draft, else its published menu (management API)",
    route: 'GET /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft',
    needs: ['locationId'],
    minimum: { roundTrips: 4, transactions: 0, rationale: 'token check + the location, the draft and the menu (three GetItems, in parallel)' },
    prepare: staffGets('staff', (world) => `/v15/merchants/${world.merchantId}/locations/${world.locationId!}/menu_draft`),
  },
  {
    id: 'menu-drafts-update',
    title: "Save a location's first menu draft (management API)",
    route: 'PUT /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft',
    consumable: true,
    minimum: {
      roundTrips: 5,
      transactions: 1,
      rationale: 'token check + the location, the draft and the menu (in parallel) + one transaction: the draft (on its version), audit entry',
    },
    async prepare({ world, count }) {
      // A location per request: saves of one draft at once would race on its version (409 by design).
      const { merchantId, locationIds } = await benchLocationsMerchant(count);
      const token = await benchStaffToken(world, 'manager', merchantId);
      return eachOnce(locationIds, 'locations to draft a menu for', (locationId) => ({
        method: 'PUT',
        path: `/v15/merchants/${merchantId}/locations/${locationId}/menu_draft`,
        headers: auth(token),
        body: BENCH_MENU_DRAFT,
      }));
    },
  },
  {
    id: 'menu-drafts-publish',
    title: "Publish a location's first menu from its draft (management API)",
    route: 'POST /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/publish',
    consumable: true,
    minimum: {
      roundTrips: 6,
      transactions: 1,
      rationale:
        "token check + the location, the draft and the menu (in parallel) + the new menu's id (a counter) + one transaction: the menu, the draft emptied, the location's menu link and its change-feed row, audit entry",
    },
    async prepare({ world, api, count }) {
      // Drafts saved through the API first, one location per request (a publish of one draft at once races by design).
      const { merchantId, locationIds } = await benchLocationsMerchant(count);
      const token = await benchStaffToken(world, 'manager', merchantId);
      await createMany(locationIds.length, 4, async (index) => {
        const saved = await api.call('PUT', `/v15/merchants/${merchantId}/locations/${locationIds[index]!}/menu_draft`, { token, body: BENCH_MENU_DRAFT });
        if (saved.status !== 200) throw new Error(`bench: menu draft not saved (${saved.status})`);
      });
      return eachOnce(locationIds, 'menu drafts to publish', (locationId) => ({
        method: 'POST',
        path: `/v15/merchants/${merchantId}/locations/${locationId}/menu_draft/publish`,
        headers: auth(token),
        body: { menu_draft: { version: 1 } },
      }));
    },
  },
  // Management API: a merchant's customers (docs/merchant-api.md "Customers"). Merchants of their own whose customers
  // are the bench users (credit of 1 cent each), so the lookup windows and the open grants of one user stay within bounds.
  {
    id: 'customer-lookups-create',
    title: "Find a merchant's customer by email (management API)",
    route: 'POST /v15/merchants/{merchant_id}/customer_lookups',
    consumable: true,
    minimum: {
      roundTrips: 7,
      transactions: 0,
      rationale:
        "token check + the staff member's and the merchant's lookup windows + the email's login + in parallel the customer's balances (BatchGetItem), their loyalty here (Query) and the merchant's catalog (Query); by phone the same count, the phone index's Query in place of the login (a number several users share: +1 wait, their standing read in parallel)",
    },
    prepare: customerRequests((customer) => ({ path: 'customer_lookups', body: { customer_lookup: { email: customer.user.email } } })),
  },
  {
    id: 'customers-show',
    title: "A customer's balances and loyalty at a merchant (management API)",
    route: 'GET /v15/merchants/{merchant_id}/customers/{user_id}',
    consumable: true,
    minimum: {
      roundTrips: 4,
      transactions: 0,
      rationale: "token check + in parallel the customer's balances (BatchGetItem), their loyalty here (Query) and the merchant's catalog (Query)",
    },
    prepare: customerRequests((customer) => ({ method: 'GET', path: `customers/${customer.user.userId}` })),
  },
  {
    id: 'customer-credit-grants-create',
    title: 'Grant a customer credit (management API)',
    route: 'POST /v15/merchants/{merchant_id}/customers/{user_id}/credit_grants',
    consumable: true,
    minimum: {
      roundTrips: 7,
      transactions: 1,
      rationale:
        "token check + the Idempotency-Key's claim and its read + the customer's balances and loyalty (in parallel) + the grants list and the merchant's budget (BatchGetItem) + one transaction: grant, balance and ledger entry, grants list, budget counter, audit entry, stored answer",
    },
    prepare: customerRequests((customer) => ({
      path: `customers/${customer.user.userId}/credit_grants`,
      body: { credit_grant: { value_amount: 1 } },
      keyed: true,
    })),
  },
  {
    id: 'customer-campaign-unlockings-create',
    title: 'Unlock a campaign for a customer (management API)',
    route: 'POST /v15/merchants/{merchant_id}/customers/{user_id}/campaign_unlockings',
    consumable: true,
    minimum: {
      roundTrips: 7,
      transactions: 1,
      rationale:
        "token check + the Idempotency-Key's claim and its read + the customer's balances and loyalty (in parallel) + the campaign, the user and the event counter (BatchGetItem) + one transaction: unlocking, its event, audit entry, stored answer",
    },
    prepare: customerRequests((customer) => ({
      path: `customers/${customer.user.userId}/campaign_unlockings`,
      body: { campaign_unlocking: { campaign_id: customer.lockedCampaignId } },
      keyed: true,
    })),
  },
];

export const scenarios: Scenario[] = SCENARIO_ROWS.map(scenarioFrom);

/**
 * Requests of one customer route, each for the next bench user at a merchant of its own: a fresh merchant every
 * CUSTOMER_REQUESTS_PER_MERCHANT requests (under its hourly lookup window and 100 open grants of a user there), a
 * fresh owner token every CUSTOMER_REQUESTS_PER_TOKEN (under a staff member's lookup window).
 */
const CUSTOMER_REQUESTS_PER_MERCHANT = 250;
const CUSTOMER_REQUESTS_PER_TOKEN = 25;
type BenchCustomer = { user: BenchUser; lockedCampaignId: number };
function customerRequests(
  request: (customer: BenchCustomer) => { method?: 'GET' | 'POST'; path: string; body?: unknown; keyed?: boolean },
): Scenario['prepare'] {
  return async ({ world, count }) => {
    const { createMerchant } = await import('#shared/domain/merchants/merchants.ts');
    const { addCredit } = await import('#shared/domain/money/ledger.ts');
    const { createCampaign } = await import('#shared/domain/loyalty/campaigns.ts');
    const perMerchant = Math.min(CUSTOMER_REQUESTS_PER_MERCHANT, world.users.length * 90);
    const merchants = await createMany(Math.ceil(count / perMerchant), 2, async () => {
      const { merchant_id: merchantId } = await createMerchant({
        name: 'Bench customers',
        username: `bench-customers-${randomBytes(6).toString('hex')}`,
        password: BENCH_PASSWORD,
      });
      await createMany(world.users.length, 4, (index) =>
        addCredit({ userId: world.users[index]!.userId, merchantId, amount: 1, entryId: `bench:${merchantId}:${index}` }),
      );
      const campaign = await createCampaign({
        merchant_id: merchantId,
        kind: 'spend',
        title: 'Bench members',
        required_spend_amount: 5000,
        earn_amount: 500,
        locked: true,
      });
      const tokens = await createMany(Math.ceil(perMerchant / CUSTOMER_REQUESTS_PER_TOKEN), 4, () => benchStaffToken(world, 'owner', merchantId));
      return { merchantId, tokens, lockedCampaignId: campaign.campaign_id };
    });
    let next = 0;
    return () => {
      const index = next++;
      const merchant = merchants[Math.floor(index / perMerchant)];
      if (!merchant) throw new Error('ran out of customer merchants');
      const within = index % perMerchant;
      const token = merchant.tokens[Math.floor(within / CUSTOMER_REQUESTS_PER_TOKEN)]!;
      const { method = 'POST', path, body, keyed } = request({ user: world.users[index % world.users.length]!, lockedCampaignId: merchant.lockedCampaignId });
      return {
        method,
        path: `/v15/merchants/${merchant.merchantId}/${path}`,
        headers: { ...auth(token), ...(keyed ? { 'idempotency-key': randomBytes(16).toString('hex') } : {}) },
        ...(body === undefined ? {} : { body }),
      };
    };
  };
}

/** Campaigns one bench merchant takes (under MAX_CAMPAIGNS_PER_MERCHANT). */
const BENCH_CAMPAIGNS_PER_MERCHANT = 150;

/** `count` fresh merchants, each with an owner's token and `campaigns` spend campaigns made through the domain library. */
async function benchCampaignMerchants(
  world: World,
  count: number,
  campaigns: number,
): Promise<{ merchantId: number; ownerToken: string; campaignIds: number[] }[]> {
  const { createMerchant } = await import('#shared/domain/merchants/merchants.ts');
  const { createCampaign } = await import('#shared/domain/loyalty/campaigns.ts');
  return createMany(count, 4, async (index) => {
    const tag = randomBytes(6).toString('hex');
    const { merchant_id: merchantId } = await createMerchant({
      name: `Bench campaigns ${index}`,
      username: `bench-campaigns-${tag}`,
      password: BENCH_PASSWORD,
    });
    // One at a time: each creation updates the merchant's campaign count.
    const made = await createMany(campaigns, 1, (number) =>
      createCampaign({ merchant_id: merchantId, kind: 'spend', title: `Bench ${number}`, required_spend_amount: 5000, earn_amount: 500 }),
    );
    return { merchantId, ownerToken: await benchStaffToken(world, 'owner', merchantId), campaignIds: made.map((campaign) => campaign.campaign_id) };
  });
}

/** `count` campaigns of fresh merchants, each with its path and its merchant owner's token. */
async function benchCampaigns(world: World, count: number): Promise<{ path: string; ownerToken: string }[]> {
  const merchants = await benchCampaignMerchants(world, Math.ceil(count / BENCH_CAMPAIGNS_PER_MERCHANT), Math.min(count, BENCH_CAMPAIGNS_PER_MERCHANT));
  return merchants.flatMap((merchant) =>
    merchant.campaignIds.map((campaignId) => ({ path: `/v15/merchants/${merchant.merchantId}/campaigns/${campaignId}`, ownerToken: merchant.ownerToken })),
  );
}

/** Locations the update scenario takes in turn: many more than requests in flight. */
const BENCH_UPDATED_LOCATIONS = 40;

/** A small first menu draft (its upsell's id given, so a save takes no id counter). */
const BENCH_MENU_DRAFT = {
  menu_draft: {
    version: 0,
    menu: {
      categories: [
        {
          id: 1,
          name: 'Coffee',
          items: [
            { id: 101, name: 'Latte', price_amount: 450 },
            { id: 102, name: 'Scone', price_amount: 325 },
          ],
        },
      ],
      upsells: [{ id: 1, prompt: 'A scone with that?', item_ids: [102], trigger_item_ids: [101] }],
    },
  },
};

/** A merchant of the bench's own with `count` locations (made as the operators make them). */
async function benchLocationsMerchant(count: number): Promise<{ merchantId: number; locationIds: number[] }> {
  const { createMerchant } = await import('#shared/domain/merchants/merchants.ts');
  const { merchant_id: merchantId } = await createMerchant({
    name: 'Bench locations',
    username: `bench-locations-${randomBytes(6).toString('hex')}`,
    password: BENCH_PASSWORD,
  });
  const locationIds = await createMany(count, 4, (index) => createLocationFor(merchantId, index));
  return { merchantId, locationIds };
}

let exportWorldSeeded: Promise<World> | undefined;

/**
 * The CSV exports' merchant: a world of its own (seedWorld: 10 locations and a delivery kitchen, its app, users and
 * cards) with EXPORT_ORDERS completed orders, seeded once per run. On the bench merchant an export read whatever the
 * scenarios before it had left (about 2,250 orders in a full run, none in an `--only` run), so its rows, its pages
 * and its round trips changed with the scenarios selected and their speed.
 */
function exportWorld({ api, runId }: ScenarioContext): Promise<World> {
  exportWorldSeeded ??= (async () => {
    const world = await seedWorld(`${runId}-exports`);
    if (world.locationId === undefined) throw new Error(`the exports' merchant has no location (${JSON.stringify(world.problems)})`);
    await completeOrders(api, world, world.users, EXPORT_ORDERS);
    return world;
  })();
  return exportWorldSeeded;
}

const MAX_BENCH_ENDPOINTS = 10;

/** Every event id of the caller, oldest first, following `Link` to the end as a client does. */
async function allEventIds(api: Api, token: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined = '/v15/events';
  while (next) {
    const page = await api.call('GET', next, { token });
    if (page.status === 204) break;
    if (page.status !== 200) throw new Error(`GET /v15/events answered ${page.status}`);
    ids.push(...(page.body as { event: { id: string } }[]).map((item) => item.event.id));
    next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
  }
  return ids;
}

async function appToken(appId: number): Promise<string> {
  const { issueToken } = await import('#shared/auth/tokens.ts');
  return issueToken({ subject: 'app', appId });
}

/** Staff one bench merchant takes (under MAX_STAFF_PER_MERCHANT with its owner). */
const BENCH_STAFF_PER_MERCHANT = 150;

/** `count` fresh merchants, each with an owner (and their token) and `staff` more staff members, through the domain library. */
async function benchStaffMerchants(world: World, count: number, staff: number): Promise<{ merchantId: number; ownerToken: string; staffIds: number[] }[]> {
  const { createMerchant } = await import('#shared/domain/merchants/merchants.ts');
  const { addFirstOwner, inviteStaff } = await import('#shared/domain/staff/members.ts');
  const { issueToken } = await import('#shared/auth/tokens.ts');
  const { MERCHANT_PERMISSIONS } = await import('#shared/routes.ts');
  return createMany(count, 4, async (index) => {
    const tag = randomBytes(6).toString('hex');
    const { merchant_id: merchantId } = await createMerchant({ name: `Bench staff ${index}`, username: `bench-staff-${tag}`, password: BENCH_PASSWORD });
    const baseUrl = 'http://127.0.0.1';
    const owner = await addFirstOwner({ merchantId, email: `bench-owner-${tag}@example.com`, name: 'Bench owner', baseUrl });
    const ownerToken = await issueToken({
      subject: 'merchant',
      merchantId,
      appId: world.appId,
      permissions: MERCHANT_PERMISSIONS,
      staff: { staffId: owner.staff_id, role: 'owner' },
    });
    const members = await createMany(staff, 4, (member) =>
      inviteStaff({ merchantId, actor: null, invite: { email: `bench-staff-${tag}-${member}@example.com`, name: `Bench ${member}`, role: 'staff' }, baseUrl }),
    );
    return { merchantId, ownerToken, staffIds: members.map((member) => member.staff_id) };
  });
}

/** `count` fresh apps with their own tokens: each app an audience of its own (at most 10 endpoints each). */
async function benchApps(world: World, count: number): Promise<{ appId: number; token: string }[]> {
  const { createApp } = await import('#shared/domain/identity/apps.ts');
  return createMany(count, 8, async (index) => {
    const { app } = await createApp({ name: `Bench webhooks ${index}`, global: false, merchantIds: [world.merchantId] });
    return { appId: app.app_id, token: await appToken(app.app_id) };
  });
}

/** Where the replayed events' card ids start: far above any card the bench adds, so each event's resource is new. */
const BENCH_REPLAY_CARD_IDS = 1_000_000_000;

/**
 * `count` replays that each have their endpoint's budget (WEBHOOK_REPLAYS_PER_ENDPOINT: 3 per endpoint and quarter
 * hour), so the scenario measures a replay, not its 429: fresh apps (an audience has at most MAX_BENCH_ENDPOINTS endpoints),
 * each with two events and its endpoints subscribed to every type an app receives, as most receivers are; a replay
 * after the first event reads one Query page per shard and queues one delivery. Ordered so that consecutive
 * requests name different endpoints.
 */
async function benchReplayTargets(world: World, api: Api, url: string, count: number): Promise<{ endpointId: string; token: string; after: string }[]> {
  const { EVENT_AUDIENCE, appAudience, creditCardResource, recordEvent } = await import('#shared/domain/events/catalogue.ts');
  const { transactWrite } = await import('#shared/db/transactions.ts');
  const events = Object.entries(EVENT_AUDIENCE)
    .filter(([, audience]) => audience === 'app')
    .map(([type]) => type);
  const endpointsNeeded = Math.ceil(count / WEBHOOK_REPLAYS_PER_ENDPOINT.limit);
  const apps = await benchApps(world, Math.ceil(endpointsNeeded / MAX_BENCH_ENDPOINTS));
  const endpoints = (
    await createMany(apps.length, 4, async (index) => {
      const { appId, token } = apps[index]!;
      for (const cardId of [1, 2]) {
        const event = await recordEvent(
          'credit_card.created',
          creditCardResource(BENCH_REPLAY_CARD_IDS + appId * 10 + cardId),
          appAudience(appId),
          { id: cardId, last_4: '4242' },
          { newResource: true },
        );
        const outcome = await transactWrite(() => event);
        if (!outcome.committed) throw new Error(`bench: an event of app ${appId} was not written`);
      }
      const ids = await allEventIds(api, token);
      if (ids.length !== 2) throw new Error(`bench app ${appId} has ${ids.length} events, not 2`);
      const made: { endpointId: string; token: string; after: string }[] = [];
      for (let endpoint = 0; endpoint < Math.min(MAX_BENCH_ENDPOINTS, endpointsNeeded - index * MAX_BENCH_ENDPOINTS); endpoint++) {
        const response = await api.call('POST', '/v15/webhook_endpoints', { token, body: { webhook_endpoint: { url, events } } });
        if (response.status !== 200) throw new Error(`webhook endpoint answered ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
        made.push({ endpointId: response.body.webhook_endpoint.id as string, token, after: ids[0]! });
      }
      return made;
    })
  ).flat();
  return Array.from({ length: WEBHOOK_REPLAYS_PER_ENDPOINT.limit }, () => endpoints).flat();
}

/** Creates `count` endpoints of the app through the domain library; returns their ids. */
async function benchEndpoints(appId: number, count: number): Promise<string[]> {
  const { createEndpoint } = await import('#shared/domain/events/endpoints.ts');
  const { appAudience } = await import('#shared/domain/events/catalogue.ts');
  const { OPERATOR_AUDIT } = await import('#shared/domain/audit/audit-log.ts');
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const input = { url: `https://hooks.example.com/bench/${index}`, events: ['credit_card.created'] as const };
    ids.push((await createEndpoint(appAudience(appId), input, OPERATOR_AUDIT)).endpoint.endpoint_id);
  }
  return ids;
}

/** Polls an order_url as the iOS SDK does (every 0.5 s while 202) until it answers `status`. */
async function pollFor(api: Api, orderUrl: string, token: string, status: number): Promise<ApiResponse> {
  for (let poll = 0; poll < 120; poll++) {
    const response = await api.call('GET', orderUrl, { token });
    if (response.status === status) return response;
    if (response.status !== 202) throw new Error(`polling ${orderUrl} answered ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${orderUrl} still 202 after 60 s`);
}

/** Starts an order ahead for `user` and polls it until valid; returns its order_completion_url. */
export async function validOrderAhead(api: Api, world: World, user: BenchUser): Promise<string> {
  const started = await api.call('POST', '/v15/order_ahead/orders', { token: user.token, body: orderAheadStartBody(world) });
  if (started.status !== 200) throw new Error(`order ahead start answered ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
  const valid = await pollFor(api, started.body.order.order_url, user.token, 200);
  return valid.body.order.order_completion_url as string;
}

/** Starts, validates and completes an order ahead for `user`; returns the completed order's order_url. */
async function completeOrderAhead(api: Api, world: World, user: BenchUser): Promise<string> {
  const submitted = await api.call('POST', await validOrderAhead(api, world, user), { token: user.token });
  if (submitted.status !== 202) throw new Error(`order ahead completion answered ${submitted.status} ${JSON.stringify(submitted.body).slice(0, 300)}`);
  await pollFor(api, submitted.body.order.order_url, user.token, 200);
  return submitted.body.order.order_url as string;
}

/** The order-ahead flow is measured separately: start, then poll order_url until it is not 202. */
export const ORDER_AHEAD_START: RouteRef = routeRef({ method: 'POST', path: '/v15/order_ahead/orders' });
export const ORDER_AHEAD_SHOW: RouteRef = routeRef({ method: 'GET', path: '/v15/order_ahead/orders/{uuid}' });

export function orderAheadStartBody(world: World) {
  return {
    order: {
      location_id: world.locationId,
      conveyance: { fulfillment_type: 'pickup', desired_ready_time: null },
      items: [{ item: { id: world.menuItemId, quantity: 1, option_ids: [], special_instructions: null } }],
      special_instructions: null,
      tip_amount: 0,
    },
  };
}

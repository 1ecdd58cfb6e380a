/**
 * Tenant isolation with real resources: user B's token on user A's resources is 404, merchant 2's token
 * on merchant 1's resources is 401 (as the contract and docs/*.md say for each route), lists show only
 * the caller's own items, and no such attempt changes anything (full table snapshot before and after).
 * Token kind and permission checks on every route are test/foundation/auth-matrix.test.ts's; here each
 * case also tries the owner-side token of the other kind on the real resource.
 *
 * The matrix is a table: every route of shared/routes.ts is either in it or listed in NO_TENANT_RESOURCE
 * with the reason, so a new route fails this file until it is classified.
 *
 * Secrets: after everything, a Scan of the table finds no plaintext token, password, API key or card
 * nonce this file made (the QR code's payment_token_data is stored by design: it is the POS's lookup key),
 * and no response, response header or structured log line carried a password or a token other than
 * the one a token-issuing response hands out.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The structured request log is part of what must not leak: log at info in this file (the suite runs
// silent). Hoisted above the imports, so shared/log.ts reads it when it loads.
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
});

import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { setInterstitial } from '#shared/domain/app-surface/interstitials.ts';
import { routeKey, routes } from '#shared/routes.ts';
import { useTestApi, type ApiCall, type ApiResult, type TestApi } from '../support/api.ts';
import { appFixture } from '../support/fixtures.ts';
import { staffFixture } from '../support/staff.ts';
import { LOCATION_PLACE } from '../support/locations.ts';
import { contractErrorProblem, politeCall, snapshotTable, tableChanges, tenantWorld, type TableChange, type TenantWorld } from '../support/fuzz.ts';
import { pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

/** The test API with every response recorded (world building included). */
const rawApi = useTestApi(startOrderAheadTestApi);
let api: TestApi;
let world: TenantWorld;
const logLines: string[] = [];
const responses: { what: string; result: ApiResult; issuedToken?: string }[] = [];

/**
 * Every call of this file goes through here, so every response is checked for leaks at the end. It waits out the
 * local gateway's throttle (API Gateway's own 429, before any handler): the matrix outgrew its burst.
 */
async function call(method: string, path: string, options: ApiCall = {}): Promise<ApiResult> {
  const result = await politeCall(rawApi, method, path, options);
  responses.push({ what: `${method} ${path}`, result });
  return result;
}

beforeAll(async () => {
  for (const stream of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, stream).mockImplementation((...args: unknown[]) => {
      logLines.push(args.map(String).join(' '));
    });
  }
  api = { ...rawApi, call };
  world = await tenantWorld(api);
  staff = await staffWorld(world);
});

/** Merchant 1's owner and a staff member, merchant 2's owner: the management routes take a staff member's token (docs/merchant-api.md). */
async function staffWorld(w: TenantWorld) {
  const [owner1, member1, owner2] = await Promise.all([
    staffFixture(w.app.app_id, w.merchant1.merchant.merchant_id, 'owner'),
    staffFixture(w.app.app_id, w.merchant1.merchant.merchant_id, 'staff'),
    staffFixture(w.app.app_id, w.merchant2.merchant.merchant_id, 'owner'),
  ]);
  w.secrets.push(owner1.token, member1.token, owner2.token);
  return { owner1, member1, owner2 };
}
let staff: Awaited<ReturnType<typeof staffWorld>>;
afterAll(() => {
  vi.restoreAllMocks();
});

type Expected = { status: 404; body: 'empty' | unknown[] } | { status: 401 | 422; body: unknown[] };

interface Attempt {
  token: string;
  path: string;
  body?: unknown;
}

interface IsolationCase {
  /** `METHOD path` of shared/routes.ts. */
  route: string;
  name: string;
  /** The other tenant's attempt on the owner's resource. */
  attempt: (w: TenantWorld) => Attempt;
  expected: Expected;
  /** The owner-side token of the other kind (a merchant the user buys from, the merchant's customer). */
  otherKind: (w: TenantWorld) => string;
  /** The resource is real and the owner reaches it (a read, so it changes nothing). */
  ownerSees: (w: TenantWorld) => Promise<void>;
}

const EMPTY_404: Expected = { status: 404, body: 'empty' };
const notAuthorizedFor = (object: string, property: string, message: string, code?: string) => [
  { error: { object, property, message, ...(code ? { code } : {}) } },
];

async function expectListed(path: string, token: string, id: string | number) {
  const response = await call('GET', path, { token });
  expect(response.status, response.text).toBe(200);
  expect(response.text).toContain(String(id));
}

const userPath = (w: TenantWorld) => w.merchant1.token;

/** A management route of merchant 1 over today (UTC). */
const managementPath = (w: TenantWorld, tail: string) => {
  const today = new Date().toISOString().slice(0, 10);
  return `/v15/merchants/${w.merchant1.merchant.merchant_id}/${tail}?from=${today}&to=${today}`;
};

const merchantPath = (w: TenantWorld) => w.userA.token;

/** Merchant 2's owner on merchant 1's staff routes: 401, as every merchant route answers another merchant's token. */
const NOT_THIS_MERCHANT: Expected = {
  status: 401,
  body: notAuthorizedFor('access_token', 'merchant_token', 'The access token is not a merchant token for this merchant.', 'not_authorized'),
};
const merchant1Staff = (w: TenantWorld, suffix = '') => `/v15/merchants/${w.merchant1.merchant.merchant_id}/staff${suffix}`;
const merchant1StaffListed = (w: TenantWorld) => expectListed(merchant1Staff(w), staff.owner1.token, `"id":${staff.member1.staffId},`);
const STAFF_CASES: IsolationCase[] = [
  {
    route: 'GET /v15/merchants/{merchant_id}/staff',
    name: "merchant 2's owner lists merchant 1's staff",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Staff(w) }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1StaffListed,
  },
  {
    route: 'POST /v15/merchants/{merchant_id}/staff',
    name: "merchant 2's owner invites into merchant 1's staff",
    attempt: (w) => ({
      token: staff.owner2.token,
      path: merchant1Staff(w),
      body: { staff: { email: 'intruder@example.com', name: 'Intruder', role: 'owner' } },
    }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1StaffListed,
  },
  {
    route: 'GET /v15/merchants/{merchant_id}/staff/me',
    name: "merchant 2's owner asks who they are at merchant 1",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Staff(w, '/me') }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1StaffListed,
  },
  {
    route: 'PUT /v15/merchants/{merchant_id}/staff/{staff_id}',
    name: "merchant 2's owner promotes merchant 1's staff member",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Staff(w, `/${staff.member1.staffId}`), body: { staff: { role: 'owner' } } }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1StaffListed,
  },
  {
    route: 'DELETE /v15/merchants/{merchant_id}/staff/{staff_id}',
    name: "merchant 2's owner removes merchant 1's staff member",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Staff(w, `/${staff.member1.staffId}`) }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1StaffListed,
  },
];

/** Merchant 2's owner on merchant 1's locations (the management routes, docs/merchant-api.md "Locations"): 401, and location 1 is as it was. */
/** A path under merchant 1 (the management routes name the merchant in their path). */
const merchant1Path = (w: TenantWorld, tail: string) => `/v15/merchants/${w.merchant1.merchant.merchant_id}/${tail}`;
const merchant1Locations = (w: TenantWorld, tail = 'locations') => merchant1Path(w, tail);
const merchant1LocationUnchanged = async (w: TenantWorld) => {
  const read = await call('GET', merchant1Locations(w, `locations/${w.location1.location_id}`), { token: staff.owner1.token });
  expect(read.status, read.text).toBe(200);
  expect(read.body.location).toMatchObject({ id: w.location1.location_id, shown: w.location1.shown, hours: w.location1.hours });
};
const LOCATION_CASES: IsolationCase[] = [
  {
    route: 'GET /v15/merchants/{merchant_id}/all_locations',
    name: "merchant 2's owner lists merchant 1's locations, hidden ones included",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Locations(w, 'all_locations') }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed(merchant1Locations(w, 'all_locations'), staff.owner1.token, `"id":${w.location1.location_id},`),
  },
  {
    route: 'GET /v15/merchants/{merchant_id}/locations/{location_id}',
    name: "merchant 2's owner reads merchant 1's location settings",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Locations(w, `locations/${w.location1.location_id}`) }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1LocationUnchanged,
  },
  {
    route: 'POST /v15/merchants/{merchant_id}/locations',
    name: "merchant 2's owner adds a location to merchant 1",
    attempt: (w) => ({
      token: staff.owner2.token,
      path: merchant1Locations(w),
      body: {
        location: { ...LOCATION_PLACE, street_address: '1 Intruder Way' },
      },
    }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed(merchant1Locations(w, 'all_locations'), staff.owner1.token, `"id":${w.location1.location_id},`),
  },
  {
    route: 'PUT /v15/merchants/{merchant_id}/locations/{location_id}',
    name: "merchant 2's owner hides merchant 1's location",
    attempt: (w) => ({ token: staff.owner2.token, path: merchant1Locations(w, `locations/${w.location1.location_id}`), body: { location: { shown: false } } }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: merchant1LocationUnchanged,
  },
];
/** Merchant 2's owner on merchant 1's campaigns (its locked campaign): 401 before the handler, nothing changed. */
const merchant1CampaignShown = (w: TenantWorld) =>
  expectListed(merchant1Path(w, `campaigns/${w.lockedCampaign.campaign_id}`), staff.owner1.token, `"id":${w.lockedCampaign.campaign_id},`);
const campaignAttempts: [route: string, what: string, tail: (w: TenantWorld) => string, body?: unknown][] = [
  ['GET /v15/merchants/{merchant_id}/all_campaigns', "lists merchant 1's campaigns", () => 'all_campaigns'],
  ['GET /v15/merchants/{merchant_id}/campaigns/{campaign_id}', "reads merchant 1's campaign", (w) => `campaigns/${w.lockedCampaign.campaign_id}`],
  [
    'POST /v15/merchants/{merchant_id}/campaigns',
    'creates a campaign for merchant 1',
    () => 'campaigns',
    { campaign: { kind: 'spend', title: 'Intruder', required_spend_amount: 100, earn_amount: 100 } },
  ],
  [
    'PUT /v15/merchants/{merchant_id}/campaigns/{campaign_id}',
    "renames merchant 1's campaign",
    (w) => `campaigns/${w.lockedCampaign.campaign_id}`,
    { campaign: { title: 'Renamed by merchant 2' } },
  ],
  [
    'POST /v15/merchants/{merchant_id}/campaigns/{campaign_id}/close',
    "closes merchant 1's campaign",
    (w) => `campaigns/${w.lockedCampaign.campaign_id}/close`,
    {},
  ],
];
const CAMPAIGN_CASES: IsolationCase[] = campaignAttempts.map(([route, what, tail, body]) => ({
  route,
  name: `merchant 2's owner ${what}`,
  attempt: (w) => ({ token: staff.owner2.token, path: merchant1Path(w, tail(w)), body }),
  expected: NOT_THIS_MERCHANT,
  otherKind: merchantPath,
  ownerSees: merchant1CampaignShown,
}));

/** Merchant 2's owner on merchant 1's menu draft (docs/merchant-api.md, "Menus"): 401 before the handler, the draft as it was. */
const merchant1MenuDraft = (w: TenantWorld) => `locations/${w.location1.location_id}/menu_draft`;
const merchant1MenuDraftShown = (w: TenantWorld) => expectListed(merchant1Path(w, merchant1MenuDraft(w)), staff.owner1.token, '"version":0,');
const menuDraftAttempts: [route: string, what: string, tail: string, body?: unknown][] = [
  ['GET /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft', "reads merchant 1's menu draft", ''],
  [
    'PUT /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft',
    "replaces merchant 1's menu draft",
    '',
    { menu_draft: { version: 0, menu: { categories: [{ id: 1, name: 'Intruder', items: [{ id: 1, name: 'Intruder', price_amount: 1 }] }] } } },
  ],
  [
    'POST /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/publish',
    "publishes merchant 1's menu draft",
    '/publish',
    { menu_draft: { version: 0 } },
  ],
  [
    'POST /v15/merchants/{merchant_id}/locations/{location_id}/menu_draft/discard',
    "discards merchant 1's menu draft",
    '/discard',
    { menu_draft: { version: 0 } },
  ],
];
const MENU_DRAFT_CASES: IsolationCase[] = menuDraftAttempts.map(([route, what, tail, body]) => ({
  route,
  name: `merchant 2's owner ${what}`,
  attempt: (w) => ({ token: staff.owner2.token, path: merchant1Path(w, `${merchant1MenuDraft(w)}${tail}`), body }),
  expected: NOT_THIS_MERCHANT,
  otherKind: merchantPath,
  ownerSees: merchant1MenuDraftShown,
}));
/** Merchant 2's owner on merchant 1's location image uploads (docs/merchant-api.md, "Locations: images"): 401, and the location has no upload or image. */
const merchant1ImageUploads = (w: TenantWorld) => `locations/${w.location1.location_id}/image_uploads`;
const IMAGE_UPLOAD_CASES: IsolationCase[] = [
  [
    'POST /v15/merchants/{merchant_id}/locations/{location_id}/image_uploads',
    "starts an upload of merchant 1's location picture",
    '',
    { image_upload: { content_type: 'image/jpeg' } },
  ],
  [
    'GET /v15/merchants/{merchant_id}/locations/{location_id}/image_uploads/{upload_id}',
    "reads an upload of merchant 1's location picture",
    `/${'a'.repeat(32)}`,
  ],
].map(([route, what, tail, body]) => ({
  route: route as string,
  name: `merchant 2's owner ${what as string}`,
  attempt: (w: TenantWorld) => ({ token: staff.owner2.token, path: merchant1Path(w, `${merchant1ImageUploads(w)}${tail as string}`), body }),
  expected: NOT_THIS_MERCHANT,
  otherKind: merchantPath,
  ownerSees: async (w: TenantWorld) => {
    await merchant1LocationUnchanged(w);
    const image = await call('GET', `/v15/locations/${w.location1.location_id}/image?density=1&height=212&width=320`);
    expect(image.status, image.text).toBe(404);
  },
}));
/** Merchant 2's owner on merchant 1's customer (user A, who ordered and holds gift card value there): 401 before the handler, nothing read or changed. */
const merchant1CustomerShown = (w: TenantWorld) =>
  expectListed(merchant1Path(w, `customers/${w.userA.user.user_id}`), staff.owner1.token, `"id":${w.userA.user.user_id},`);
const customerAttempts: [route: string, what: string, tail: (w: TenantWorld) => string, body?: (w: TenantWorld) => unknown][] = [
  [
    'POST /v15/merchants/{merchant_id}/customer_lookups',
    "finds merchant 1's customer by email",
    () => 'customer_lookups',
    (w) => ({ customer_lookup: { email: w.userA.email } }),
  ],
  ['GET /v15/merchants/{merchant_id}/customers/{user_id}', "reads merchant 1's customer's balances", (w) => `customers/${w.userA.user.user_id}`],
  [
    'POST /v15/merchants/{merchant_id}/customers/{user_id}/credit_grants',
    'grants credit at merchant 1',
    (w) => `customers/${w.userA.user.user_id}/credit_grants`,
    () => ({ credit_grant: { value_amount: 100 } }),
  ],
  [
    'POST /v15/merchants/{merchant_id}/customers/{user_id}/campaign_unlockings',
    "unlocks merchant 1's locked campaign",
    (w) => `customers/${w.userA.user.user_id}/campaign_unlockings`,
    (w) => ({ campaign_unlocking: { campaign_id: w.lockedCampaign.campaign_id } }),
  ],
];
const CUSTOMER_CASES: IsolationCase[] = customerAttempts.map(([route, what, tail, body]) => ({
  route,
  name: `merchant 2's owner ${what}`,
  attempt: (w) => ({ token: staff.owner2.token, path: merchant1Path(w, tail(w)), body: body?.(w) }),
  expected: NOT_THIS_MERCHANT,
  otherKind: merchantPath,
  ownerSees: merchant1CustomerShown,
}));
/** Merchant 2's owner on merchant 1's orders (its completed order): 401 before the handler, the order still completed. */
const merchant1OrderCompleted = (w: TenantWorld) => expectListed(merchant1Path(w, `orders/${w.orderUuid}/details`), staff.owner1.token, '"state":"completed"');
const orderAttempts: [route: string, what: string, tail: (w: TenantWorld) => string, body?: unknown][] = [
  ['GET /v15/merchants/{merchant_id}/orders', "lists merchant 1's orders", (w) => `orders?location_id=${w.location1.location_id}`],
  ['GET /v15/merchants/{merchant_id}/orders/{uuid}/details', "reads merchant 1's order", (w) => `orders/${w.orderUuid}/details`],
  ['POST /v15/merchants/{merchant_id}/orders/{uuid}/refund', "refunds merchant 1's order", (w) => `orders/${w.orderUuid}/refund`, {}],
  [
    'POST /v15/merchants/{merchant_id}/detached_refunds',
    'gives credit as merchant 1',
    () => 'detached_refunds',
    { detached_refund: { credit_amount: 100, location_id: 1, payment_token_data: 'x' } },
  ],
];
const ORDER_CASES: IsolationCase[] = orderAttempts.map(([route, what, tail, body]) => ({
  route,
  name: `merchant 2's owner ${what}`,
  attempt: (w) => ({ token: staff.owner2.token, path: merchant1Path(w, tail(w)), body }),
  expected: NOT_THIS_MERCHANT,
  otherKind: merchantPath,
  ownerSees: merchant1OrderCompleted,
}));

/**
 * Merchant 2's money and loyalty writes aimed at merchant 1 (docs/money.md, docs/pos.md): 401 with the route's own
 * `not_authorized` error (a merchant token not tied to the merchant concerned). Each write would create something, so
 * the owner has nothing to read back: the unchanged table is the check. The path is the route's, on merchant 1's ids.
 */
const onMerchant1 = (route: string, w: TenantWorld) =>
  route.split(' ')[1]!.replace('{merchant_id}', String(w.merchant1.merchant.merchant_id)).replace('{location_id}', String(w.location1.location_id));
type NotAuthorized = [object: string, property: string, message: string];
const CREATE_ORDERS: NotAuthorized = ['order', 'merchant_token', 'Not authorized to create orders for this merchant.'];
const merchant2WriteAttempts: [route: string, what: string, body: (w: TenantWorld) => unknown, error: NotAuthorized][] = [
  [
    'POST /v15/merchants/{merchant_id}/gift_card_value_additions',
    "loads a gift card at merchant 1's id",
    (w) => ({ gift_card_value_addition: { payment_token_data: w.userA.user.payment_token_data, value_amount: 1000 } }),
    ['gift_card_value_addition', 'merchant_token', 'Not authorized to add gift card value for this merchant.'],
  ],
  [
    'POST /v15/campaign_unlockings',
    "unlocks merchant 1's locked campaign",
    (w) => ({ campaign_unlocking: { target_campaign_id: w.lockedCampaign.campaign_id, email: w.userB.email } }),
    ['campaign_unlocking', 'target_campaign_id', 'Merchant token not associated with the campaign'],
  ],
  [
    'POST /v15/completed_orders',
    "completes merchant 1's proposed order",
    (w) => ({
      completed_order: {
        proposed_order_uuid: w.openProposalUuid,
        location_id: w.location1.location_id,
        payment_token_data: w.userA.user.payment_token_data,
        spend_amount: 700,
        tax_amount: 0,
        applied_discount_amount: 0,
      },
    }),
    CREATE_ORDERS,
  ],
  [
    'POST /v15/proposed_orders',
    "proposes an order at merchant 1's location",
    (w) => ({ proposed_order: { location_id: w.location1.location_id, payment_token_data: w.userA.user.payment_token_data, spend_amount: 500, items: [] } }),
    CREATE_ORDERS,
  ],
  ...(['v15', 'v14'] as const).flatMap((version): (typeof merchant2WriteAttempts)[number][] => [
    [
      `POST /${version}/orders`,
      `places a one-step order at merchant 1's location for user A (${version})`,
      (w) => ({ order: { location_id: w.location1.location_id, payment_token_data: w.userA.user.payment_token_data, spend_amount: 500 } }),
      CREATE_ORDERS,
    ],
    [
      `POST /${version}/detached_refunds`,
      `credits user A at merchant 1's location (${version})`,
      (w) => ({ detached_refund: { credit_amount: 100, location_id: w.location1.location_id, payment_token_data: w.userA.user.payment_token_data } }),
      ['detached_refund', 'merchant_token', 'Not authorized to refund at this location.'],
    ],
  ]),
  [
    'POST /v15/merchant_funded_credits',
    "gives credit at merchant 1's id",
    (w) => ({ merchant_funded_credit: { email: w.userA.email, value_amount: 100, merchant_id: w.merchant1.merchant.merchant_id } }),
    ['merchant_funded_credit', 'merchant_id', 'Not authorized to give credit for this merchant.'],
  ],
  [
    'POST /v15/progress_adjustments',
    "adjusts user A's progress on merchant 1's campaign",
    (w) => ({ progress_adjustment: { adjustment: 1, campaign_id: w.rewardCampaign.campaign_id, user_id: w.userA.user.user_id } }),
    ['progress_adjustment', 'campaign_id', 'Merchant token not associated with the campaign'],
  ],
  [
    'POST /v15/merchants/{merchant_id}/gift_card_value_removals',
    "removes user A's gift card value at merchant 1's id",
    (w) => ({ gift_card_value_removal: { payment_token_data: w.userA.user.payment_token_data, value_amount: 100 } }),
    ['gift_card_value_removal', 'merchant_token', 'Not authorized to remove gift card value for this merchant.'],
  ],
  [
    'POST /v15/locations/{location_id}/get_merchant_funded_gift_card_credit',
    "reads user A's gift card value at merchant 1's location",
    (w) => ({ get_merchant_funded_gift_card_credit: { payment_token_data: w.userA.user.payment_token_data } }),
    ['location', 'merchant_token', 'Not authorized for this location.'],
  ],
];
const MERCHANT2_WRITE_CASES: IsolationCase[] = merchant2WriteAttempts.map(([route, what, body, [object, property, message]]) => ({
  route,
  name: `merchant 2 ${what}`,
  attempt: (w) => ({ token: w.merchant2.token, path: onMerchant1(route, w), body: body(w) }),
  expected: { status: 401, body: notAuthorizedFor(object, property, message, 'not_authorized') },
  otherKind: merchantPath,
  ownerSees: async () => undefined,
}));

/** The matrix: one row per (route, resource) a tenant could reach for. */
const CASES: IsolationCase[] = [
  ...STAFF_CASES,
  ...LOCATION_CASES,
  ...CAMPAIGN_CASES,
  ...MENU_DRAFT_CASES,
  ...IMAGE_UPLOAD_CASES,
  ...CUSTOMER_CASES,
  ...ORDER_CASES,
  ...MERCHANT2_WRITE_CASES,
  // The management API's audit log and manager codes: merchant 2's login on merchant 1's path (docs/merchant-api.md).
  {
    route: 'GET /v15/merchants/{merchant_id}/audit_log',
    name: "merchant 2 reads merchant 1's audit log",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/merchants/${w.merchant1.merchant.merchant_id}/audit_log` }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: async (w) => {
      const listed = await call('GET', `/v15/merchants/${w.merchant1.merchant.merchant_id}/audit_log`, { token: staff.owner1.token });
      expect([200, 204], listed.text).toContain(listed.status);
    },
  },
  {
    route: 'GET /v15/merchants/{merchant_id}/audit_log.csv',
    name: "merchant 2 exports merchant 1's audit log",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/merchants/${w.merchant1.merchant.merchant_id}/audit_log.csv?from=2026-01-01&to=2026-02-01` }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: async (w) => {
      const path = `/v15/merchants/${w.merchant1.merchant.merchant_id}/audit_log.csv?from=2026-01-01&to=2026-02-01`;
      const exported = await call('GET', path, { token: staff.owner1.token });
      expect(exported.status, exported.text).toBe(200);
    },
  },
  {
    route: 'PUT /v15/merchants/{merchant_id}/staff/me/manager_code',
    name: 'merchant 2 sets a manager code at merchant 1',
    attempt: (w) => ({
      token: w.merchant2.token,
      path: `/v15/merchants/${w.merchant1.merchant.merchant_id}/staff/me/manager_code`,
      body: { manager_code: { code: '246813' } },
    }),
    expected: NOT_THIS_MERCHANT,
    otherKind: merchantPath,
    ownerSees: async () => undefined,
  },
  {
    route: 'DELETE /v15/webhook_endpoints/{id}',
    name: "merchant 2 deletes merchant 1's webhook endpoint",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/webhook_endpoints/${w.merchantWebhookId}` }),
    expected: EMPTY_404,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed('/v15/webhook_endpoints', w.merchant1.token, w.merchantWebhookId),
  },
  {
    route: 'DELETE /v15/webhook_endpoints/{id}',
    name: "app 2 deletes app 1's webhook endpoint",
    attempt: (w) => ({ token: w.otherAppToken, path: `/v15/webhook_endpoints/${w.appWebhookId}` }),
    expected: EMPTY_404,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed('/v15/webhook_endpoints', w.appToken, w.appWebhookId),
  },
  {
    route: 'POST /v15/webhook_endpoints/{id}/secrets',
    name: "merchant 2 rolls the secret of merchant 1's webhook endpoint",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/webhook_endpoints/${w.merchantWebhookId}/secrets` }),
    expected: EMPTY_404,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed('/v15/webhook_endpoints', w.merchant1.token, w.merchantWebhookId),
  },
  {
    route: 'POST /v15/webhook_endpoints/{id}/replays',
    name: "merchant 2 replays merchant 1's events to merchant 1's endpoint",
    attempt: (w) => ({
      token: w.merchant2.token,
      path: `/v15/webhook_endpoints/${w.merchantWebhookId}/replays`,
      body: { replay: { after: w.merchantEventId } },
    }),
    expected: EMPTY_404,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed('/v15/events', w.merchant1.token, w.merchantEventId),
  },
  {
    route: 'GET /v15/webhook_endpoints/{id}/deliveries',
    name: "merchant 2 reads the deliveries of merchant 1's webhook endpoint",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/webhook_endpoints/${w.merchantWebhookId}/deliveries` }),
    expected: EMPTY_404,
    otherKind: merchantPath,
    ownerSees: (w) => expectListed('/v15/webhook_endpoints', w.merchant1.token, w.merchantWebhookId),
  },
  {
    route: 'PUT /v15/user_addresses/{id}',
    name: "B updates A's address",
    attempt: (w) => ({
      token: w.userB.token,
      path: `/v15/user_addresses/${w.userA.address.address_id}`,
      body: { user_address: { street_address: '666 Elsewhere' } },
    }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed('/v15/user_addresses', w.userA.token, w.userA.address.street_address),
  },
  {
    route: 'DELETE /v15/user_addresses/{id}',
    name: "B deletes A's address",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/user_addresses/${w.userA.address.address_id}` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed('/v15/user_addresses', w.userA.token, `"id":${w.userA.address.address_id}`),
  },
  {
    route: 'DELETE /v14/credit_cards/{id}',
    name: "B deletes A's card",
    attempt: (w) => ({ token: w.userB.token, path: `/v14/credit_cards/${w.cards.A}` }),
    expected: { status: 404, body: notAuthorizedFor('credit_card', 'id', 'Credit card not found.', 'not_found') },
    otherKind: userPath,
    ownerSees: (w) => expectListed('/v15/credit_cards', w.userA.token, `"id":${w.cards.A}`),
  },
  {
    route: 'PUT /v14/credit_cards/{id}',
    name: "B promotes A's card",
    attempt: (w) => ({ token: w.userB.token, path: `/v14/credit_cards/${w.cards.A}` }),
    expected: { status: 404, body: notAuthorizedFor('credit_card', 'id', 'Credit card not found.', 'not_found') },
    otherKind: userPath,
    ownerSees: (w) => expectListed('/v14/credit_cards', w.userA.token, `"id":${w.cards.A}`),
  },
  {
    route: 'GET /v15/orders/{uuid}',
    name: "B reads A's order",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/orders/${w.orderUuid}` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v15/orders/${w.orderUuid}`, w.userA.token, w.orderUuid),
  },
  {
    route: 'GET /v15/order_ahead/orders/{uuid}',
    name: "B polls A's order-ahead order",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/order_ahead/orders/${w.orderAheadUuid}` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: async (w) => {
      const { last } = await pollUntilSettled(api, `/v15/order_ahead/orders/${w.orderAheadUuid}`, w.userA.token);
      expect(last.status, last.text).toBe(200);
    },
  },
  {
    route: 'POST /v15/order_ahead/orders/{uuid}/complete',
    name: "B completes A's order-ahead order",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/order_ahead/orders/${w.orderAheadUuid}/complete` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: async (w) => {
      const { last } = await pollUntilSettled(api, `/v15/order_ahead/orders/${w.orderAheadUuid}`, w.userA.token);
      expect(last.body.order.state).toBe('externally_valid');
    },
  },
  {
    route: 'GET /v15/order_ahead/orders/{uuid}/complete',
    name: "B polls A's completed order-ahead order",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/order_ahead/orders/${w.completedOrderAheadUuid}/complete` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: async (w) => {
      const response = await call('GET', `/v15/order_ahead/orders/${w.completedOrderAheadUuid}/complete`, { token: w.userA.token });
      expect(response.status, response.text).toBe(200);
    },
  },
  {
    route: 'GET /v15/user_addresses/{id}/delivery_location',
    name: "B asks which location delivers to A's address",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/user_addresses/${w.userA.address.address_id}/delivery_location` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: async (w) => {
      const response = await call('GET', `/v15/user_addresses/${w.userA.address.address_id}/delivery_location`, { token: w.userA.token });
      expect(response.status, response.text).toBe(200);
      expect(response.body.location.id).toBe(w.location1.location_id);
    },
  },
  {
    route: 'PUT /v15/rewards/{reward_id}/pause',
    name: "B pauses A's reward",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/rewards/${w.rewardId}/pause` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v15/merchants/${w.merchant1.merchant.merchant_id}/rewards`, w.userA.token, w.rewardId),
  },
  {
    route: 'DELETE /v15/rewards/{reward_id}/pause',
    name: "B unpauses A's reward",
    attempt: (w) => ({ token: w.userB.token, path: `/v15/rewards/${w.rewardId}/pause` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v15/merchants/${w.merchant1.merchant.merchant_id}/rewards`, w.userA.token, w.rewardId),
  },
  ...(
    [
      ['PUT /v15/merchants/{merchant_id}/rewards/{claim_id}', (w: TenantWorld) => `/v15/merchants/${w.merchant1.merchant.merchant_id}/rewards/${w.rewardId}`],
      ['PUT /v15/locations/{location_id}/rewards/{claim_id}', (w: TenantWorld) => `/v15/locations/${w.location1.location_id}/rewards/${w.rewardId}`],
    ] as const
  ).map(([route, path]): IsolationCase => ({
    route,
    name: `B pauses A's reward (${route.split('/')[2]} path)`,
    attempt: (w) => ({ token: w.userB.token, path: path(w), body: { reward: { paused: true } } }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v15/locations/${w.location1.location_id}/rewards`, w.userA.token, w.rewardId),
  })),
  {
    route: 'GET /v15/apps/permissions_requests/{id}',
    name: "app 2 polls app 1's permissions request",
    attempt: (w) => ({ token: w.otherAppToken, path: `/v15/apps/permissions_requests/${w.permissionsRequestId}` }),
    expected: EMPTY_404,
    // The user the request was addressed to holds a user token, not the asking app's.
    otherKind: (w) => w.userA.token,
    ownerSees: async (w) => {
      const response = await call('GET', `/v15/apps/permissions_requests/${w.permissionsRequestId}`, { token: w.appToken });
      expect(response.status, response.text).toBe(200);
      expect(response.body.permissions_request).toMatchObject({ id: w.permissionsRequestId, state: 'pending', token: null });
    },
  },
  {
    route: 'PUT /v15/permissions_requests/{id}',
    name: 'B answers the permissions request sent to A',
    attempt: (w) => ({
      token: w.userB.token,
      path: `/v15/permissions_requests/${w.permissionsRequestId}`,
      body: { permissions_request: { state: 'accepted' } },
    }),
    expected: EMPTY_404,
    otherKind: (w) => w.appToken,
    ownerSees: (w) => expectListed('/v15/permissions_requests', w.userA.token, `"id":${w.permissionsRequestId},`),
  },
  {
    route: 'GET /v14/users/{id}',
    name: 'B reads A by id',
    attempt: (w) => ({ token: w.userB.token, path: `/v14/users/${w.userA.user.user_id}` }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v14/users/${w.userA.user.user_id}`, w.userA.token, w.userA.email),
  },
  {
    route: 'PUT /v14/users/{id}',
    name: 'B updates A by id',
    attempt: (w) => ({
      token: w.userB.token,
      path: `/v14/users/${w.userA.user.user_id}`,
      body: { user: { first_name: 'Mallory', new_password: 'taken over password' } },
    }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v14/users/${w.userA.user.user_id}`, w.userA.token, w.userA.email),
  },
  ...(['v14', 'v15'] as const).map((version): IsolationCase => ({
    route: `GET /${version}/orders/{uuid}/interstitial`,
    name: `B reads the interstitial of A's order (${version})`,
    attempt: (w) => ({ token: w.userB.token, path: `/${version}/orders/${w.orderUuid}/interstitial` }),
    expected: { status: 404, body: notAuthorizedFor('interstitial', 'id', 'Interstitial not found.', 'not_found') },
    otherKind: userPath,
    ownerSees: async (w) => {
      await setInterstitial({ merchantId: w.merchant1.merchant.merchant_id, type: 'no_action', title: 'Thanks!' });
      expect((await call('GET', `/${version}/orders/${w.orderUuid}/interstitial`, { token: w.userA.token })).status).toBe(200);
    },
  })),
  {
    route: 'POST /v15/orders/{uuid}/feedback',
    name: "B answers the feedback of A's order",
    attempt: (w) => ({
      token: w.userB.token,
      path: `/v15/orders/${w.orderUuid}/feedback`,
      body: { feedback: { question_text: 'How was it?', rating: 1, comment: 'awful' } },
    }),
    expected: EMPTY_404,
    otherKind: userPath,
    ownerSees: (w) => expectListed(`/v15/orders/${w.orderUuid}`, w.userA.token, w.orderUuid),
  },
  ...(['v14', 'v15'] as const).map((version): IsolationCase => ({
    route: `POST /${version}/orders/{uuid}/refund`,
    name: `merchant 2 refunds merchant 1's order (${version})`,
    attempt: (w) => ({ token: w.merchant2.token, path: `/${version}/orders/${w.orderUuid}/refund`, body: { refund: { manager_confirmation: null } } }),
    expected: { status: 401, body: notAuthorizedFor('order', 'merchant_token', 'Not authorized to refund orders for this merchant.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: async (w) => {
      const order = await call('GET', `/v15/orders/${w.orderUuid}`, { token: w.userA.token });
      expect(order.body.order.refunded_at).toBeNull();
    },
  })),
  ...(['v15', 'v14'] as const).map((version): IsolationCase => ({
    route: `GET /${version}/merchants/{merchant_id}/orders/{uuid}`,
    name: `merchant 2 reads merchant 1's order at merchant 1's path (${version})`,
    attempt: (w) => ({ token: w.merchant2.token, path: `/${version}/merchants/${w.merchant1.merchant.merchant_id}/orders/${w.orderUuid}` }),
    expected: { status: 401, body: notAuthorizedFor('merchant', 'merchant_token', 'Not authorized for this merchant.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: (w) => expectListed(`/${version}/merchants/${w.merchant1.merchant.merchant_id}/orders/${w.orderUuid}`, w.merchant1.token, w.orderUuid),
  })),
  {
    route: 'GET /v14/locations/{location_id}/orders',
    name: "merchant 2 lists the orders at merchant 1's location",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v14/locations/${w.location1.location_id}/orders` }),
    expected: { status: 401, body: notAuthorizedFor('location', 'merchant_token', "Not authorized to view this location's orders.", 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: (w) => expectListed(`/v14/locations/${w.location1.location_id}/orders`, w.merchant1.token, w.orderUuid),
  },
  {
    route: 'GET /v14/merchants/{merchant_id}/locations',
    name: "merchant 2 lists merchant 1's locations, hidden ones included (v14)",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v14/merchants/${w.merchant1.merchant.merchant_id}/locations` }),
    expected: { status: 401, body: notAuthorizedFor('merchant', 'merchant_token', 'Not authorized for this merchant.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: (w) => expectListed(`/v14/merchants/${w.merchant1.merchant.merchant_id}/locations`, w.merchant1.token, `"id":${w.location1.location_id},`),
  },
  // Management reports and exports (docs/merchant-api.md, "Reports and exports"): another merchant's token is 401 before the handler.
  ...[
    ['GET /v15/merchants/{merchant_id}/reports/daily', 'reports/daily', '"daily_report"'],
    ['GET /v15/merchants/{merchant_id}/exports/orders.csv', 'exports/orders.csv', 'order_uuid,created_at'],
    ['GET /v15/merchants/{merchant_id}/exports/ledger.csv', 'exports/ledger.csv', 'created_at,account'],
  ].map(([route, tail, shown]): IsolationCase => ({
    route: route!,
    name: `merchant 2 reads merchant 1's ${tail}`,
    attempt: (w) => ({ token: w.merchant2.token, path: managementPath(w, tail!) }),
    expected: {
      status: 401,
      body: notAuthorizedFor('access_token', 'merchant_token', 'The access token is not a merchant token for this merchant.', 'not_authorized'),
    },
    otherKind: merchantPath,
    ownerSees: async (w) => expectListed(managementPath(w, tail!), staff.owner1.token, shown!),
  })),
  {
    route: 'GET /v15/checks/{uuid}',
    name: "merchant 2 reads merchant 1's remote check",
    attempt: (w) => ({ token: w.merchant2.token, path: `/v15/checks/${w.checkUuid}` }),
    expected: { status: 401, body: notAuthorizedFor('check', 'merchant_token', 'Not authorized to use checks of this merchant.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: async (w) => {
      const check = await call('GET', `/v15/checks/${w.checkUuid}`, { token: w.merchant1.token });
      expect(check.body.check.state).toBe('claimed');
    },
  },
  {
    route: 'PUT /v15/checks/{uuid}',
    name: "merchant 2 rewrites merchant 1's remote check",
    attempt: (w) => ({
      token: w.merchant2.token,
      path: `/v15/checks/${w.checkUuid}`,
      body: { check: { location_id: w.location1.location_id, spend_amount: 1 } },
    }),
    expected: { status: 401, body: notAuthorizedFor('check', 'merchant_token', 'Not authorized to use checks of this merchant.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: async (w) => {
      const check = await call('GET', `/v15/checks/${w.checkUuid}`, { token: w.merchant1.token });
      expect(check.body.check.spend_amount).toBe(1200);
    },
  },
  {
    route: 'POST /v15/checks/{uuid}/orders',
    name: "merchant 2 finalises merchant 1's remote check",
    attempt: (w) => ({
      token: w.merchant2.token,
      path: `/v15/checks/${w.checkUuid}/orders`,
      body: { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: 1200 } },
    }),
    expected: { status: 401, body: notAuthorizedFor('check', 'merchant_token', 'Not authorized to use checks of this merchant.', 'not_authorized') },
    // The route takes user and merchant tokens (claim or finalise): the kind it never takes is an app's.
    otherKind: (w) => w.appToken,
    ownerSees: async (w) => {
      const check = await call('GET', `/v15/checks/${w.checkUuid}`, { token: w.merchant1.token });
      expect(check.body.check.state).toBe('claimed');
    },
  },
  {
    route: 'POST /v15/checks/{uuid}/orders',
    name: 'B claims the remote check A claimed',
    attempt: (w) => ({ token: w.userB.token, path: `/v15/checks/${w.checkUuid}/orders`, body: {} }),
    expected: EMPTY_404,
    otherKind: (w) => w.appToken,
    ownerSees: async (w) => {
      const check = await call('POST', `/v15/checks/${w.checkUuid}/orders`, { token: w.userA.token, body: {} });
      expect(check.status, check.text).toBe(200);
      expect(check.body.check.state).toBe('claimed');
    },
  },
  // POS credit checks (docs/pos.md): merchant 2 asks for user A's credit at merchant 1's location.
  ...(['GET /v15', 'GET /v14', 'POST /v15', 'POST /v14'] as const).map((form): IsolationCase => ({
    route: `${form.split(' ')[0]} ${form.split(' ')[1]}/locations/{location_id}/merchant_funded_credit`,
    name: `merchant 2 reads user A's credit at merchant 1's location (${form})`,
    attempt: (w) => ({
      token: w.merchant2.token,
      path: `${form.split(' ')[1]}/locations/${w.location1.location_id}/merchant_funded_credit?payment_token_data=${w.userA.user.payment_token_data}`,
      body: form.startsWith('POST') ? { credit_query: { payment_token_data: w.userA.user.payment_token_data } } : undefined,
    }),
    expected: { status: 401, body: notAuthorizedFor('location', 'merchant_token', 'Not authorized for this location.', 'not_authorized') },
    otherKind: merchantPath,
    ownerSees: async () => undefined,
  })),
];

/** Lists (and the caller's own record): the other tenant's items never show. */
interface ListCase {
  route: string;
  name: string;
  run: (w: TenantWorld) => Promise<void>;
}

async function listText(path: string, token: string): Promise<string> {
  const response = await call('GET', path, { token });
  expect([200, 204], response.text).toContain(response.status);
  return response.text;
}

/** B's list lacks A's item, which A's own list shows (so the item is real). The path is the route's. */
const withoutAs = (route: string, name: string, item: (w: TenantWorld) => string): ListCase => ({
  route,
  name,
  run: async (w) => {
    const path = route.split(' ')[1]!;
    expect(await listText(path, w.userB.token)).not.toContain(item(w));
    expect(await listText(path, w.userA.token)).toContain(item(w));
  },
});

/** B's own record (the route's path, B's token) shows B's value and never A's. */
const onlyBs = (route: string, name: string, value: (user: TenantWorld['userA']) => string): ListCase => ({
  route,
  name,
  run: async (w) => {
    const text = await listText(route.split(' ')[1]!, w.userB.token);
    expect(text).toContain(value(w.userB));
    expect(text).not.toContain(value(w.userA));
  },
});

const LIST_CASES: ListCase[] = [
  {
    route: 'GET /v15/webhook_endpoints',
    name: "merchant 2's and app 2's endpoints do not include merchant 1's or app 1's",
    run: async (w) => {
      for (const token of [w.merchant2.token, w.otherAppToken]) {
        const response = await call('GET', '/v15/webhook_endpoints', { token });
        expect(response.status, response.text).toBe(204);
      }
      expect(await listText('/v15/webhook_endpoints', w.merchant1.token)).toContain(w.merchantWebhookId);
      expect(await listText('/v15/webhook_endpoints', w.merchant1.token)).not.toContain(w.appWebhookId);
    },
  },
  {
    route: 'GET /v15/events',
    name: "merchant 2's and app 2's events do not include merchant 1's or app 1's",
    run: async (w) => {
      expect(await listText('/v15/events', w.merchant1.token)).toContain(w.orderUuid);
      expect(await listText('/v15/events', w.merchant2.token)).not.toContain(w.orderUuid);
      expect(await listText('/v15/events', w.otherAppToken)).not.toContain(w.merchantEventId);
      expect(await listText(`/v15/events?after=${w.merchantEventId}`, w.merchant2.token)).not.toContain(w.orderUuid);
      // A's claim is app 1's event (the claiming app): not app 2's, not a merchant's.
      const claimResource = `"resource":{"type":"claim","id":"${w.rewardCampaign.campaign_id}-${w.userA.user.user_id}"}`;
      expect(await listText('/v15/events', w.appToken)).toContain(claimResource);
      for (const token of [w.otherAppToken, w.merchant1.token, w.merchant2.token]) expect(await listText('/v15/events', token)).not.toContain(claimResource);
    },
  },
  {
    route: 'GET /v15/events',
    name: "app 2's and the merchants' events do not include app 1's users' (order ahead, cards)",
    run: async (w) => {
      const appEvents = await listText('/v15/events', w.appToken);
      expect(appEvents).toContain('"order_ahead.validated"');
      expect(appEvents).toContain(w.orderAheadUuid);
      expect(appEvents).toContain('"credit_card.created"');
      expect(await listText('/v15/events', w.otherAppToken)).not.toContain(w.orderAheadUuid);
      for (const token of [w.otherAppToken, w.merchant1.token, w.merchant2.token]) {
        const listed = await listText('/v15/events', token);
        expect(listed).not.toContain('"order_ahead.');
        expect(listed).not.toContain('"credit_card.');
      }
    },
  },
  withoutAs('GET /v15/user_addresses', "B's addresses do not include A's", (w) => `"id":${w.userA.address.address_id},`),
  withoutAs('GET /v15/credit_cards', "B's cards do not include A's", (w) => `"id":${w.cards.A},`),
  withoutAs('GET /v14/credit_cards', "B's cards do not include A's (v14)", (w) => `"id":${w.cards.A},`),
  {
    route: 'GET /v15/payment_method',
    name: "B's payment method is B's card, never A's",
    run: async (w) => {
      const [a, b] = await Promise.all([
        call('GET', '/v15/payment_method', { token: w.userA.token }),
        call('GET', '/v15/payment_method', { token: w.userB.token }),
      ]);
      const listed = async (token: string) => (await call('GET', '/v15/credit_cards', { token })).body[0].credit_card.last_4;
      expect(a.body.payment_method.metadata.last_4).toBe(await listed(w.userA.token));
      expect(b.body.payment_method.metadata.last_4).toBe(await listed(w.userB.token));
    },
  },
  withoutAs('GET /v15/apps/orders', "B's orders do not include A's", (w) => w.orderUuid),
  withoutAs('GET /v15/users/orders', "B's orders (Ruby form) do not include A's", (w) => w.orderUuid),
  {
    route: 'GET /v14/apps/{app_id}/orders',
    name: "B's orders (v14, by app id) do not include A's; another app's id is 404",
    run: async (w) => {
      expect(await listText(`/v14/apps/${w.app.app_id}/orders`, w.userB.token)).not.toContain(w.orderUuid);
      expect(await listText(`/v14/apps/${w.app.app_id}/orders`, w.userA.token)).toContain(w.orderUuid);
      const { app: other } = await appFixture();
      expect((await call('GET', `/v14/apps/${other.app_id}/orders`, { token: w.userA.token })).status).toBe(404);
    },
  },
  {
    route: 'GET /v15/merchants/{merchant_id}/rewards',
    name: "B's rewards at merchant 1 do not include A's, nor do an anonymous caller's",
    run: async (w) => {
      const path = `/v15/merchants/${w.merchant1.merchant.merchant_id}/rewards`;
      expect(await listText(path, w.userB.token)).not.toContain(w.rewardId);
      const anonymous = await call('GET', path);
      expect(anonymous.status).toBe(200);
      expect(anonymous.text).not.toContain(w.rewardId);
      expect(await listText(path, w.userA.token)).toContain(w.rewardId);
    },
  },
  ...(['v14', 'v15'] as const).map((version): ListCase => ({
    route: `GET /${version}/merchants/{merchant_id}/loyalty`,
    name: `B's loyalty record at merchant 1 is B's, without A's order (${version})`,
    run: async (w) => {
      const path = `/${version}/merchants/${w.merchant1.merchant.merchant_id}/loyalty`;
      const own = await call('GET', path, { token: w.userA.token });
      expect(own.body.loyalty).toMatchObject({ user_id: w.userA.user.user_id, orders_count: expect.any(Number) });
      expect(own.body.loyalty.orders_count).toBeGreaterThan(0);
      const other = await call('GET', path, { token: w.userB.token });
      expect(other.body.loyalty).toMatchObject({ user_id: w.userB.user.user_id, orders_count: 0, total_volume_amount: 0, potential_credit_amount: 0 });
    },
  })),
  {
    route: 'GET /v15/locations/{location_id}/rewards',
    name: "B's rewards at merchant 1's location do not include A's, nor do an anonymous caller's",
    run: async (w) => {
      const path = `/v15/locations/${w.location1.location_id}/rewards`;
      expect(await listText(path, w.userB.token)).not.toContain(w.rewardId);
      expect((await call('GET', path)).text).not.toContain(w.rewardId);
      expect(await listText(path, w.userA.token)).toContain(w.rewardId);
    },
  },
  {
    route: 'GET /v15/locations/{location_id}/reward_summary',
    name: "B's reward summary at merchant 1's location counts none of A's rewards",
    run: async (w) => {
      const path = `/v15/locations/${w.location1.location_id}/reward_summary`;
      expect((await call('GET', path, { token: w.userA.token })).body.reward_summary.reward_count).toBeGreaterThan(0);
      expect((await call('GET', path, { token: w.userB.token })).body.reward_summary).toEqual({
        credit_amount: 0,
        reward_count: 0,
        usable_as_credit_reward_count: 0,
      });
    },
  },
  onlyBs('GET /v15/users', 'B reads only B', (user) => user.email),
  {
    route: 'GET /v15/permissions_requests',
    name: "B's pending permissions request is not the one sent to A",
    run: async (w) => {
      const pending = await call('GET', '/v15/permissions_requests', { token: w.userB.token });
      expect(pending.text).not.toContain(`"id":${w.permissionsRequestId},`);
      expect(await listText('/v15/permissions_requests', w.userA.token)).toContain(`"id":${w.permissionsRequestId},`);
    },
  },
  onlyBs('GET /v15/payment_token', "B's QR code is B's", (user) => user.user.payment_token_data),
  onlyBs('GET /v14/payment_token', "B's QR code is B's (v14)", (user) => user.user.payment_token_data),
  {
    route: 'GET /v15/qr_codes',
    name: "B's QR string carries B's token, never A's",
    run: async (w) => {
      const mine = await call('GET', '/v15/qr_codes?preferences[color]=1&preferences[tip_percent]=10', { token: w.userB.token });
      expect(mine.body.qr_code.code.startsWith(w.userB.user.payment_token_data)).toBe(true);
      expect(mine.text).not.toContain(w.userA.user.payment_token_data);
    },
  },
  {
    route: 'GET /v15/order_ahead/orders/suggested',
    name: "B's suggested orders do not include A's past carts, and show B nothing of A's",
    run: async (w) => {
      const own = await listText('/v15/order_ahead/orders/suggested', w.userA.token);
      expect(own).toContain(w.completedOrderAheadUuid);
      const other = await listText('/v15/order_ahead/orders/suggested', w.userB.token);
      expect(other).not.toContain(w.completedOrderAheadUuid);
      // At the location, A's cart may be popular for B: anonymous (no uuid, address or instructions of A's).
      const popular = await listText(`/v15/order_ahead/orders/suggested?location_id=${w.location1.location_id}`, w.userB.token);
      expect(popular).not.toContain(w.completedOrderAheadUuid);
      expect(popular).not.toContain(`"delivery_address_id":${w.userA.address.address_id}`);
    },
  },
  {
    route: 'POST /v15/order_ahead/orders',
    name: "B cannot have an order delivered to A's address",
    run: async (w) => {
      const started = await call('POST', '/v15/order_ahead/orders', {
        token: w.userB.token,
        body: {
          order: {
            location_id: w.location1.location_id,
            conveyance: { fulfillment_type: 'delivery', delivery_address_id: w.userA.address.address_id },
            items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1 } }],
          },
        },
      });
      expect(started.status, started.text).toBe(200);
      const { last } = await pollUntilSettled(api, started.body.order.order_url, w.userB.token);
      expect(last.status).toBe(422);
      expect(last.body).toContainEqual({ error: expect.objectContaining({ property: 'conveyance.delivery_address_id', code: 'not_found' }) });
      expect(last.text).not.toContain(w.userA.address.street_address);
    },
  },
  {
    route: 'GET /v15/managed_locations',
    name: "merchant 2's managed locations do not include merchant 1's",
    run: async (w) => {
      expect(await listText('/v15/managed_locations', w.merchant2.token)).not.toContain(`"id":${w.location1.location_id},`);
      expect(await listText('/v15/managed_locations', w.merchant1.token)).toContain(`"id":${w.location1.location_id},`);
    },
  },
];

/** Routes with no resource of one tenant that another could name. */
const NO_TENANT_RESOURCE: Record<string, string> = {
  'POST /v15/webhook_endpoints': "creates an endpoint of the token's own merchant or app; who receives which events is test/events",
  'POST /v15/access_tokens': 'login by username and password; wrong credentials are the identity tests',
  'POST /v14/access_tokens': 'login by username and password (v14 form); wrong credentials are the identity tests',
  'DELETE /v15/access_tokens': 'revokes the presented token only (test/identity/token-lifecycle)',
  'POST /v15/access_tokens/downgrades': 'acts on the presented token only; a downgrade never widens (test/identity)',
  'POST /v15/apps/users': "sign-up through an app; the token it returns is the new user's own",
  'POST /v15/users': "sign-up through an app (Android form); the token it returns is the new user's own",
  'GET /v15/registration': 'public lookup by email (rate-limited per client); says only which app an email registered through',
  'POST /v15/apn_devices': "registers a device for the token's own user; the api_key must be that token's app (test/app-surface/push-notifications)",
  'DELETE /v15/apn_devices/{token}':
    "the app's key and the device's own APNs token are the credential, as LevelUp's; another app's key reaches nothing (test/app-surface/push-notifications)",
  'POST /v14/facebook_connection': 'always 410 Gone: reads and writes nothing',
  'DELETE /v14/facebook_connection': 'always 410 Gone: reads and writes nothing',
  'POST /v14/passwords': 'sends the reset link to the email itself; the answer is 204 whoever asks',
  'GET /password_reset': 'a static page; the secret stays in the URL fragment',
  'POST /v15/password_resets': 'the emailed single-use secret is the credential (test/identity/password-reset)',
  'POST /v15/apps/permissions_requests': 'the request belongs to the asking app; the user answers it (their pending request is the list case)',
  'POST /v14/users': 'sign-up; the app is the API key in the body',
  'PUT /v15/users': "changes the token's own user; no id in the request",
  'POST /v15/user_addresses': "creates for the token's own user",
  'POST /v15/payment_token/rotations':
    "replaces the token's own user's QR code; no id in the request (test/identity/payment-token: another user's code is untouched)",
  'GET /v15/locations/{location_id}/credit': "the token's own user's credit at a public location",
  'GET /v14/locations/{location_id}/credit': "the token's own user's credit at a public location (a new user's without a token)",
  'POST /v15/qr_code_validations': 'says only whether a scanned code exists; the code is the secret',
  'POST /v15/credit_cards': "adds to the token's own user; a card already another user's is 422 (test/cards)",
  'GET /v15/apps/{app_id}/locations': 'public (no credential)',
  'GET /v15/campaigns/{id}/{representation_type}': "campaigns are the merchant's public offer; progress shown is the caller's own (test/loyalty)",
  'POST /v15/codes/{cohort_code}/claims': "a cohort code is a public promotion; the claim is the caller's own",
  'POST /v15/loyalties/legacy/{campaign_id}/claims':
    "the token's app's legacy campaign; the claim is the caller's own (an email-bound card is only its email's user's: test/loyalty/legacy-claims-guard)",
  'GET /v15/order_ahead/locations/{location_id}/menu': 'public (no credential)',
  'GET /v15/order_ahead/menus/{menu_id}': 'public (no credential)',
  'POST /v15/upsells': "reads the public menu and the caller's own order count",
  'GET /v14/categories': 'public (no credential): the fixed category list',
  'GET /v15/locations/{location_id}/campaigns': "public (no credential): a location's public campaigns",
  'GET /v15/merchants/{merchant_id}/campaigns': "public (no credential): a merchant's public campaigns",
  'GET /v15/locations/{location_id}/web_links': "public (no credential): a location's public links",
  'GET /v14/campaigns/{id}': 'public (no credential): a public campaign (locked ones are 404: test/app-surface)',
  'GET /v14/codes/{code}/campaign': 'public (no credential) promotion lookup, counted per client address',
  'GET /v14/campaigns/{id}/merchants': 'public (no credential)',
  'GET /v14/locations': 'public (no credential): location summaries',
  'GET /v14/apps/{app_id}/locations': 'public (no credential)',
  'GET /v14/locations/{location_id}/image': 'public (no credential): a redirect to a public picture',
  'GET /v15/locations/{location_id}/image': 'public (no credential): a redirect to a public picture',
  'GET /v14/campaigns/{id}/image': 'public (no credential): a redirect to a public picture',
  'GET /v15/campaigns/{id}/icon': 'public (no credential): a redirect to a public picture',
  'GET /v15/order_ahead/menus/{menu_id}/items/{item_id}/image': 'public (no credential): a redirect to a public picture',
  'POST /v14/tickets': "creates a ticket of the token's own user; nothing reads tickets back through the API",
  'GET /v15/merchants/{merchant_id}/locations': 'public (no credential): shown locations only, as an app lists them',
  'GET /v15/locations/{location_id}': 'public (no credential): a shown location; hidden ones are 404 to everyone (test/pos)',
  'GET /v14/locations/{location_id}': 'public (no credential): a shown location; hidden ones are 404 to everyone (test/pos)',
  'GET /v14/contributions/targets': "public (no credential): the operators' list of charities",
  'GET /v14/contributions/targets/{id}': 'public (no credential): one charity',
  'DELETE /v15/payment_method': "deactivates the token's own user's billed card; no id in the request",
  'GET /v15/payment_options_summary': 'the same options for every user',
  'PUT /v15/apps/payment_preference': "sets the token's own user's preference; no id in the request",
  'PUT /v15/checks': "publishes at the token's own merchant's location; another merchant's location is 401 (test/pos)",
  'POST /v15/users/gift_card_value_orders':
    "charges the token's own user's card; the recipient is named by email and only receives value (test/money/gift-card-orders)",
  'GET /v15/users/gift_card_value_orders': "lists the gift card orders the token's own user bought; no id in the request (test/money/held-gifts)",
  'GET /openapi.json': 'public API description',
  'GET /docs': 'public API description',
  'GET /docs/assets/{file}': 'public API description',
};

/** Changes a refused attempt may make: none but an id counter (shared/db/ids.ts). */
function unexpectedChanges(changes: TableChange[]): TableChange[] {
  return changes.filter((change) => (change.after ?? change.before)!.entity !== 'Counter');
}

function expectAnswer(response: ApiResult, expected: Expected) {
  expect(response.status, response.text).toBe(expected.status);
  if (expected.body === 'empty') expect(response.text).toBe('');
  else expect(response.body).toEqual(expected.body);
  expect(contractErrorProblem(response)).toBeUndefined();
}

describe('the isolation matrix', () => {
  it('classifies every route of shared/routes.ts (a new route must be added here)', () => {
    const classified = new Set([...CASES.map((entry) => entry.route), ...LIST_CASES.map((entry) => entry.route), ...Object.keys(NO_TENANT_RESOURCE)]);
    const missing = routes.map(routeKey).filter((key) => !classified.has(key));
    expect(missing).toEqual([]);
    const unknown = [...classified].filter((key) => !routes.some((route) => routeKey(route) === key));
    expect(unknown).toEqual([]);
  });

  it.each(CASES.map((entry) => [`${entry.route}: ${entry.name}`, entry] as const))('%s', async (_, entry) => {
    const route = routes.find((candidate) => routeKey(candidate) === entry.route)!;
    await entry.ownerSees(world);
    const attempt = entry.attempt(world);
    const before = await snapshotTable();
    expectAnswer(await call(route.method, attempt.path, { token: attempt.token, body: attempt.body }), entry.expected);
    // The owner's own token of the other kind (a merchant the user buys from; the merchant's customer) is no key either.
    const otherKind = await call(route.method, attempt.path, { token: entry.otherKind(world), body: attempt.body });
    expect(otherKind.status, otherKind.text).toBe(401);
    expect(contractErrorProblem(otherKind)).toBeUndefined();
    expect(unexpectedChanges(tableChanges(before, await snapshotTable())).map((change) => change.key)).toEqual([]);
    await entry.ownerSees(world);
  });

  it.each(LIST_CASES.map((entry) => [`${entry.route}: ${entry.name}`, entry] as const))('%s', async (_, entry) => {
    await entry.run(world);
  });

  it('gift card value for another merchant id is refused whoever is named', async () => {
    // Merchant 1 naming merchant 2 in the path: the token, not the path, says who the merchant is.
    const response = await call('POST', `/v15/merchants/${world.merchant2.merchant.merchant_id}/gift_card_value_additions`, {
      token: world.merchant1.token,
      body: { gift_card_value_addition: { payment_token_data: world.userB.user.payment_token_data, value_amount: 1000 } },
    });
    expect(response.status).toBe(401);
    expect(contractErrorProblem(response)).toBeUndefined();
  });
});

describe('secrets', () => {
  it('app grants, logins and downgrades issue tokens that are then stored only hashed', async () => {
    const { apiKey, clientSecret } = await appFixture();
    world.secrets.push(apiKey, clientSecret);
    const appGrant = await rawApi.call('POST', '/v15/access_tokens', { body: { api_key: apiKey, client_secret: clientSecret } });
    expect(appGrant.status, appGrant.text).toBe(200);
    world.secrets.push(appGrant.body.access_token.token);
    responses.push({ what: 'app grant', result: appGrant, issuedToken: appGrant.body.access_token.token });
    for (const [username, password] of [
      [world.userA.email, world.userA.password],
      [world.merchant1.username, world.merchant1.password],
    ] as const) {
      const login = await rawApi.call('POST', '/v15/access_tokens', { body: { access_token: { api_key: apiKey, username, password } } });
      expect(login.status, login.text).toBe(200);
      const token: string = login.body.access_token.token;
      world.secrets.push(token);
      responses.push({ what: 'login', result: login, issuedToken: token });
      const downgraded = await rawApi.call('POST', '/v15/access_tokens/downgrades', {
        token,
        body: { access_token: { permission_keynames: [username === world.userA.email ? 'read_user_basic_info' : 'manage_gift_cards'] } },
      });
      expect(downgraded.status, downgraded.text).toBe(200);
      world.secrets.push(downgraded.body.access_token.token);
      responses.push({ what: 'downgrade', result: downgraded, issuedToken: downgraded.body.access_token.token });
    }
    const failedLogin = await call('POST', '/v15/access_tokens', {
      body: { access_token: { api_key: apiKey, username: world.userB.email, password: `${world.userB.password} (wrong)` } },
    });
    world.secrets.push(`${world.userB.password} (wrong)`);
    expect(failedLogin.status).toBe(422);
  });

  it('a Scan of the table finds no plaintext token, password, API key or card nonce', async () => {
    const dump = JSON.stringify([...(await snapshotTable()).values()]);
    expect(world.secrets.length).toBeGreaterThan(10);
    for (const secret of world.secrets) expect(dump.includes(secret), `table holds ${secret.slice(0, 6)}...`).toBe(false);
    // The sandbox's well-known card numbers are never stored either (only bin and last 4).
    expect(dump).not.toMatch(/4111111111111111|4000000000000002/);
    // By design the QR code data is stored: the POS looks the user up by it.
    expect(dump).toContain(world.userA.user.payment_token_data);
  });

  it('no response and no log line carries a password or a token', async () => {
    expect(responses.length).toBeGreaterThan(20);
    for (const { what, result, issuedToken } of responses) {
      const text = `${result.text}\n${JSON.stringify([...result.headers])}`;
      for (const secret of world.secrets) {
        if (secret === issuedToken) continue;
        expect(text.includes(secret), `${what} answered with ${secret.slice(0, 6)}...`).toBe(false);
      }
    }
    const requestLines = logLines.filter((line) => line.includes('"message":"request"'));
    expect(requestLines.length).toBeGreaterThan(20);
    for (const line of logLines) {
      for (const secret of world.secrets) expect(line.includes(secret), `log line holds ${secret.slice(0, 6)}...: ${line.slice(0, 200)}`).toBe(false);
    }
  });
});

/**
 * LevelUp's Ruby gem (levelup-sdk-ruby 0.9.6, the last release), replayed: every call issue 13 and issue 15
 * name, sent exactly as the gem builds it and read exactly as the gem reads it.
 *
 * How the gem sends (lib/levelup/requests/base.rb): HTTParty with `Accept: application/json`,
 * `Content-Type: application/json`, the body `JSON.generate(body)` on every method (so `{}` on a GET), the
 * path concatenated unencoded onto `<base>/v15/` (or `/v14/`), and the Authorization by the request's
 * auth type: `token merchant="M"`, `token M` (merchant_v14), `token merchant="M", user="U"`,
 * `token user="U"`, or none. How it reads (responses/*.rb): a 2xx is success and its JSON (nil when the
 * body is empty) goes to the request's `response_from_hash`; anything else is an error whose body must be
 * an array of `{"error": {...}}` (or empty), else the gem reports "The API returned an unexpected response".
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { loadGiftCard, orderWorld, type OrderWorld } from '../support/money.ts';

const api = useTestApi();

type AuthType = { merchant: string } | { merchant_v14: string } | { merchant_and_user: [string, string] } | { user: string } | 'none';

/** requests/base.rb `auth_header_value`. */
function authHeader(auth: AuthType): string | undefined {
  if (auth === 'none') return undefined;
  if ('merchant' in auth) return `token merchant="${auth.merchant}"`;
  if ('merchant_v14' in auth) return `token ${auth.merchant_v14}`;
  if ('merchant_and_user' in auth) return `token merchant="${auth.merchant_and_user[0]}", user="${auth.merchant_and_user[1]}"`;
  return `token user="${auth.user}"`;
}

interface GemResponse {
  success: boolean;
  status: number;
  /** HTTParty's parsed_response: the JSON, or null when the body is empty. */
  parsed: any;
  link: string | null;
}

/** requests/base.rb `send_via_httparty`: `endpoint` is `<base>/<version>/<path>` or an absolute next-page URL. */
async function gemSend(method: 'GET' | 'POST', endpoint: string, auth: AuthType, body: unknown): Promise<GemResponse> {
  const response = await api.call(method, endpoint, {
    authorization: authHeader(auth),
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    rawBody: JSON.stringify(body),
  });
  const success = response.status >= 200 && response.status < 300;
  const parsed = response.text === '' ? null : JSON.parse(response.text);
  if (!success) {
    // responses/error.rb: an array of {"error": {...}} or nothing; the gem shows any other body as "unexpected".
    expect(response.status, `${method} ${endpoint}`).toBeLessThan(500);
    expect(parsed === null || (Array.isArray(parsed) && parsed.every((entry: any) => typeof entry.error?.message === 'string')), response.text).toBe(true);
  }
  return { success, status: response.status, parsed, link: response.headers.get('link') };
}

const v15 = (path: string) => `/v15/${path}`;
const v14 = (path: string) => `/v14/${path}`;

/**
 * The gem's calls: endpoints/*.rb for the path and method, requests/*.rb for the auth type, the body and
 * `response_from_hash`. Each returns `{success, ...what the gem's response object exposes}`.
 */
const gem = {
  /** Api#orders.create: Requests::CreateOrder (merchant and user), `{order: {...}}` with each item wrapped as `{item: ...}` and empty ones left `nil`. */
  async createOrder(request: {
    items: Record<string, unknown>[];
    location_id: number;
    spend_amount: number;
    identifier_from_merchant?: string;
    merchant_access_token: string;
    user_access_token: string;
  }) {
    const { merchant_access_token, user_access_token, ...fields } = request;
    const order = { ...fields, items: fields.items.map((item) => (Object.keys(item).length === 0 ? null : { item })) };
    const response = await gemSend('POST', v15('orders'), { merchant_and_user: [merchant_access_token, user_access_token] }, { order });
    return { ...response, order: response.success ? response.parsed.order : undefined };
  },
  /** Api#locations(id).merchant_funded_credit.get(qr, merchant_token): merchant_v14 auth, the QR code unencoded in the path. */
  async locationMerchantFundedCredit(locationId: number, paymentTokenData: string, merchantToken: string) {
    const response = await gemSend(
      'GET',
      v15(`locations/${locationId}/merchant_funded_credit?payment_token_data=${paymentTokenData}`),
      { merchant_v14: merchantToken },
      {},
    );
    return { ...response, credit: response.success ? response.parsed.merchant_funded_credit : undefined };
  },
  /** Api#merchant_funded_credits.give(email:, value_amount:, merchant_access_token:): `{merchant_funded_credit: {email, value_amount}}`; success needs no body. */
  async giveMerchantCredit(request: { email: string; value_amount: number; merchant_access_token: string }) {
    const { merchant_access_token, ...fields } = request;
    return gemSend('POST', v15('merchant_funded_credits'), { merchant: merchant_access_token }, { merchant_funded_credit: fields });
  },
  /** Api#locations(id).orders.list(merchant_token): v14, merchant_v14; nil (204) is `orders: []`, else each element's 'order'. */
  async locationOrders(locationId: number | string, merchantToken: string) {
    const response = await gemSend('GET', v14(`locations/${locationId}/orders`), { merchant_v14: merchantToken }, {});
    return { ...response, orders: response.success ? (response.parsed === null ? [] : response.parsed.map((row: any) => row.order)) : undefined };
  },
  /** Api#merchants(id).locations.list(merchant_token): v14, merchant_v14; nil is `locations: []`, else each element's 'location'. */
  async merchantLocations(merchantId: number | string, merchantToken: string) {
    const response = await gemSend('GET', v14(`merchants/${merchantId}/locations`), { merchant_v14: merchantToken }, {});
    return { ...response, locations: response.success ? (response.parsed === null ? [] : response.parsed.map((row: any) => row.location)) : undefined };
  },
  /** Api#orders(uuid).refund(merchant_token): `{refund: {}}` (manager_confirmation only when set); reads 'order'. */
  async refundOrder(uuid: string, merchantToken: string, managerConfirmation?: string) {
    const response = await gemSend(
      'POST',
      `${v15(`orders/${uuid}`)}/refund`,
      { merchant: merchantToken },
      { refund: managerConfirmation === undefined ? {} : { manager_confirmation: managerConfirmation } },
    );
    return { ...response, order: response.success ? response.parsed.order : undefined };
  },
  /** Api#qr_codes.get(user_token): the three preferences (0 by default) with unescaped brackets, body {}; reads 'qr_code'. */
  async qrCode(userToken: string, preferences: { color?: number; tip_amount?: number; tip_percent?: number } = {}) {
    const path = `qr_codes?preferences[color]=${preferences.color ?? 0}&preferences[tip_amount]=${preferences.tip_amount ?? 0}&preferences[tip_percent]=${preferences.tip_percent ?? 0}`;
    const response = await gemSend('GET', v15(path), { user: userToken }, {});
    return { ...response, qrCode: response.success ? response.parsed.qr_code : undefined };
  },
  /** Api#locations(id).credit.get(user_token): reads 'credit'. */
  async locationCredit(locationId: number, userToken: string) {
    const response = await gemSend('GET', v15(`locations/${locationId}/credit`), { user: userToken }, {});
    return { ...response, credit: response.success ? response.parsed.credit : undefined };
  },
  /** Api#users.orders.list(user_token): `hash.map`, so the answer must be an array (nil would raise in the gem). */
  async userOrders(userToken: string) {
    const response = await gemSend('GET', v15('users/orders'), { user: userToken }, {});
    if (response.success) expect(Array.isArray(response.parsed), 'users.orders.list needs an array').toBe(true);
    return { ...response, orders: response.success ? response.parsed.map((row: any) => row.order) : undefined };
  },
  /** Api#apps(id).locations.list: v14, no credential; the next page is the first <...> of Link, fetched as is. */
  async appLocations(endpoint: string) {
    const response = await gemSend('GET', endpoint, 'none', {});
    const locations = response.success ? (response.parsed === null ? [] : response.parsed.map((row: any) => row.location)) : undefined;
    const nextPage = response.success && response.link ? /<([^>]+)>/.exec(response.link)![1]! : undefined;
    return { ...response, locations, nextPage };
  },
};

describe("LevelUp's Ruby gem, replayed (issue 13: the POS calls)", () => {
  let world: OrderWorld;

  it("README flow: merchant_funded_credit.get, orders.create (the gem's body with a dropped empty item), orders(uuid).refund", async () => {
    world = await orderWorld({ credit: 250 });
    const merchantToken = world.merchant.token;
    const qr = world.user.user.payment_token_data;
    expect((await loadGiftCard(api, merchantToken, world.merchant.merchant.merchant_id, { payment_token_data: qr, value_amount: 1000 })).status).toBe(200);

    const discount = await gem.locationMerchantFundedCredit(world.location.location_id, qr, merchantToken);
    expect(discount.success).toBe(true);
    expect(discount.credit).toMatchObject({ discount_amount: 250, gift_card_amount: 1000 });

    const items = [
      {
        charged_price: 350,
        description: 'Non-poisonous, supplies vital nutrients',
        name: 'Food',
        quantity: 1,
        sku: '123abc',
        category: 'Edible Things',
        standard_price: 350,
      },
      {},
    ];
    const created = await gem.createOrder({
      identifier_from_merchant: '01234',
      location_id: world.location.location_id,
      spend_amount: 1500,
      items,
      merchant_access_token: merchantToken,
      user_access_token: world.user.token,
    });
    expect(created.success, JSON.stringify(created.parsed)).toBe(true);
    // What the gem's PaymentCalculator takes from the answer, and the uuid a refund names.
    expect(created.order).toMatchObject({ spend_amount: 1500, tip_amount: 0, uuid: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const refunded = await gem.refundOrder(created.order.uuid, merchantToken);
    expect(refunded.success, JSON.stringify(refunded.parsed)).toBe(true);
    expect(refunded.order.uuid).toBe(created.order.uuid);
    expect(refunded.order.refunded_at).toEqual(expect.any(String));
  });

  it("its specs' failures are failures the gem can read: an invalid user token on orders.create, order '0' refunded", async () => {
    const invalidUser = await gem.createOrder({
      items: [],
      location_id: world.location.location_id,
      spend_amount: 10,
      merchant_access_token: world.merchant.token,
      user_access_token: 'invalid',
    });
    expect(invalidUser.success).toBe(false);
    expect(invalidUser.status).toBe(401);
    // The README passes the scanned QR code as the user token: not supported (docs/pos.md), refused as the gem can read it.
    const qrAsUser = await gem.createOrder({
      items: [],
      location_id: world.location.location_id,
      spend_amount: 10,
      merchant_access_token: world.merchant.token,
      user_access_token: world.user.user.payment_token_data,
    });
    expect(qrAsUser.success).toBe(false);
    expect(qrAsUser.status).toBe(401);
    const unknownOrder = await gem.refundOrder('0', world.merchant.token);
    expect(unknownOrder.success).toBe(false);
  });

  it('merchant_funded_credits.give (email and value_amount only) gives credit the next credit check shows', async () => {
    const given = await gem.giveMerchantCredit({ email: world.user.email, value_amount: 5, merchant_access_token: world.merchant.token });
    expect(given.success, JSON.stringify(given.parsed)).toBe(true);
    const discount = await gem.locationMerchantFundedCredit(world.location.location_id, world.user.user.payment_token_data, world.merchant.token);
    expect(discount.credit.discount_amount).toBe(255);
    const unknownEmail = await gem.giveMerchantCredit({ email: 'nobody-at-all@example.com', value_amount: 5, merchant_access_token: world.merchant.token });
    expect(unknownEmail.success).toBe(false);
  });

  it('locations(id).orders.list and merchants(id).locations.list: lists as the gem maps them, [] for none, failures for -25', async () => {
    const orders = await gem.locationOrders(world.location.location_id, world.merchant.token);
    expect(orders.success).toBe(true);
    expect(orders.orders.length).toBeGreaterThan(0);
    expect(orders.orders[0]).toMatchObject({ uuid: expect.any(String), spend_amount: expect.any(Number) });
    const quiet = await locationFixture(world.merchant.merchant.merchant_id);
    const none = await gem.locationOrders(quiet.location_id, world.merchant.token);
    expect(none.success).toBe(true);
    expect(none.orders).toEqual([]);
    expect((await gem.locationOrders(-25, world.merchant.token)).success).toBe(false);

    const locations = await gem.merchantLocations(world.merchant.merchant.merchant_id, world.merchant.token);
    expect(locations.success).toBe(true);
    expect(locations.locations.map((location: any) => location.id).sort()).toEqual([world.location.location_id, quiet.location_id].sort());
    expect(locations.locations[0]).toEqual({ id: expect.any(Number), name: expect.anything(), merchant_tip_preference: expect.any(String) });
    expect((await gem.merchantLocations(-25, world.merchant.token)).success).toBe(false);
  });
});

describe("LevelUp's Ruby gem, replayed (issue 15: the app calls)", () => {
  it('qr_codes.get answers a code; locations(id).credit.get a total_amount (an invalid token fails); users.orders.list an array', async () => {
    const world = await orderWorld({ credit: 120 });
    const qr = await gem.qrCode(world.user.token);
    expect(qr.success).toBe(true);
    expect(qr.qrCode.code).toEqual(expect.stringMatching(/^LU/));
    expect(qr.qrCode.code.startsWith(world.user.user.payment_token_data)).toBe(true);

    const credit = await gem.locationCredit(world.location.location_id, world.user.token);
    expect(credit.success).toBe(true);
    expect(credit.credit.total_amount).toBe(120);
    expect((await gem.locationCredit(world.location.location_id, '1234')).success).toBe(false);

    const none = await gem.userOrders(world.user.token);
    expect(none.success).toBe(true);
    expect(none.orders).toEqual([]);
    // An order paid with the code the gem fetched (its no-tip suffix included) is then in the list.
    const created = await gem.createOrder({
      items: [],
      location_id: world.location.location_id,
      spend_amount: 10,
      merchant_access_token: world.merchant.token,
      user_access_token: world.user.token,
    });
    expect(created.success).toBe(true);
    const listed = await gem.userOrders(world.user.token);
    expect(listed.orders.map((order: any) => order.uuid)).toEqual([created.order.uuid]);
  });

  it('apps(id).locations.list (no credential) pages by the first <...> of Link; a merchant app with none lists []', async () => {
    const { app } = await appFixture({ global: false, merchantIds: [] });
    const merchant = await merchantFixture(app.app_id);
    const { app: merchantApp } = await appFixture({ global: false, merchantIds: [merchant.merchant.merchant_id] });
    for (let index = 0; index < 11; index++) await locationFixture(merchant.merchant.merchant_id);
    const first = await gem.appLocations(v14(`apps/${merchantApp.app_id}/locations`));
    expect(first.success).toBe(true);
    expect(first.locations.length).toBeGreaterThan(0);
    expect(first.locations[0]).toMatchObject({ id: expect.any(Number), merchant_id: merchant.merchant.merchant_id });
    expect(first.nextPage).toBeDefined();
    const next = await gem.appLocations(first.nextPage!);
    expect(next.success).toBe(true);
    expect([...first.locations, ...next.locations].map((location: any) => location.id)).toHaveLength(11);
    const empty = await gem.appLocations(v14(`apps/${app.app_id}/locations`));
    expect(empty.success).toBe(true);
    expect(empty.locations).toEqual([]);
  });
});

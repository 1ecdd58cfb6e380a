/**
 * What a POS reads besides orders' money (reference P11-P15, docs/pos.md "Merchant views"): the merchant-facing
 * order, a location's orders paged by Link, managed locations, a merchant's locations and a location's details,
 * each checked against the real client's payload file and in the header forms those clients send.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { V14_LOCATION_OPTIONAL_LINKS, locationFixture, nextLink } from '../support/locations.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';

const api = useTestApi();
let world: OrderWorld;
/** Orders at world.location, oldest first. */
const placed: string[] = [];
let detailed: string;

const orderDetail = clientPayload('csharp_v15_merchants_merchant_id_orders_uuid__show.json');
const orderDetailV14 = clientPayload('docs_v14_merchants_merchant_id_orders_uuid__show_errors.json');
const locationOrders = clientPayload('csharp_v14_locations_id_orders__list_paged.json');

beforeAll(async () => {
  world = await orderWorld({ credit: 12 });
  const reference = orderDetail.response_body.order;
  // The C# test's order, placed for real: its POS fields and items as the POS sends them.
  const first = await placeOrder(api, world, {
    spend_amount: 1100,
    applied_discount_amount: 12,
    tip_amount: 2,
    cashier: reference.cashier,
    register: reference.register,
    identifier_from_merchant: reference.identifier_from_merchant,
    items: reference.items,
  });
  expect(first.status, first.text).toBe(200);
  detailed = first.body.order.uuid;
  placed.push(detailed);
  for (let index = 0; index < 11; index++) {
    const response = await placeOrder(api, world, { spend_amount: 500 + index });
    expect(response.status, response.text).toBe(200);
    placed.push(response.body.order.uuid);
  }
});

describe('P11 GET /v15 and /v14 merchants/:merchant_id/orders/:uuid', () => {
  it('answers the C# SDK with every field of its payload, the POS fields and the items as sent', async () => {
    const response = await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/orders/${detailed}`, {
      authorization: `token ${world.merchant.token}`,
    });
    expect(response.status, response.text).toBe(200);
    expectShapeOf(response.body, orderDetail.response_body);
    const reference = orderDetail.response_body.order;
    expect(response.body.order).toMatchObject({
      uuid: detailed,
      cashier: reference.cashier,
      register: reference.register,
      identifier_from_merchant: reference.identifier_from_merchant,
      location_id: world.location.location_id,
      loyalty_id: world.user.user.user_id,
      user_display_name: 'Test U.',
      merchant_funded_credit_amount: 12,
      spend_amount: 1100,
      tip_amount: 2,
      total_amount: 1102,
      earn_amount: 0,
      refunded_at: null,
      merchant_id: world.merchant.merchant.merchant_id,
      merchant_name: world.merchant.merchant.name,
    });
    expect(response.body.order.items).toEqual(reference.items);
    expect(response.body.order.created_at).toMatch(/\+00:00$/);
  });

  it('answers the v14 shape of the docs, with refunded_at once refunded', async () => {
    const path = `/v14/merchants/${world.merchant.merchant.merchant_id}/orders/${placed[1]}`;
    const before = await api.call('GET', path, { token: world.merchant.token });
    expect(before.status, before.text).toBe(200);
    expectShapeOf(before.body, orderDetailV14.response_body, { nullable: ['$.order.refunded_at'] });
    expect(before.body.order.refunded_at).toBeNull();
    expect(before.body.order).not.toHaveProperty('items');
    const refund = await api.call('POST', `/v15/orders/${placed[1]}/refund`, {
      authorization: `token merchant="${world.merchant.token}"`,
      body: { refund: {} },
    });
    expect(refund.status, refund.text).toBe(200);
    const after = await api.call('GET', path, { token: world.merchant.token });
    expectShapeOf(after.body, orderDetailV14.response_body);
    expect(after.body.order.refunded_at).toBe(refund.body.order.refunded_at);
  });

  it("answers the docs' errors: unknown merchant 404, unknown order 404, another merchant's token 401", async () => {
    const [merchantMissing, orderMissing] = orderDetailV14.errors;
    const unknownMerchant = await api.call('GET', `/v15/merchants/999999999/orders/${detailed}`, { token: world.merchant.token });
    expect(unknownMerchant.status).toBe(404);
    expect(unknownMerchant.body).toEqual(merchantMissing.response_body);
    const unknownOrder = await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/orders/0123456789abcdef0123456789abcdef`, {
      token: world.merchant.token,
    });
    expect(unknownOrder.status).toBe(404);
    expect(unknownOrder.body).toEqual(orderMissing.response_body);
    const other = await merchantFixture(world.app.app_id);
    const notTheirs = await api.call('GET', `/v14/merchants/${world.merchant.merchant.merchant_id}/orders/${detailed}`, { token: other.token });
    expect(notTheirs.status).toBe(401);
    // Their own merchant path does not reach another merchant's order either: it is simply not found.
    const ownPath = await api.call('GET', `/v15/merchants/${other.merchant.merchant_id}/orders/${detailed}`, { token: other.token });
    expect(ownPath.status).toBe(404);
    expect(ownPath.body).toEqual(orderMissing.response_body);
  });
});

describe('P12 GET /v14/locations/:location_id/orders', () => {
  const path = () => `/v14/locations/${world.location.location_id}/orders`;

  it('pages newest first by an absolute Link on every page, as the C# SDK follows it, and ends with 204', async () => {
    const first = await api.call('GET', path(), { token: world.merchant.token });
    expect(first.status, first.text).toBe(200);
    expect(first.body.map((entry: any) => entry.order.uuid)).toEqual([...placed].reverse().slice(0, 10));
    expectShapeOf(first.body, locationOrders.pages[0].response_body, { nullable: ['$[].order.refunded_at', '$[].order.refund_source'] });
    const next = nextLink(first.headers);
    expect(next).toMatch(new RegExp(`^${api.baseUrl}/v14/locations/${world.location.location_id}/orders\\?page=2&cursor=`));
    const second = await api.call('GET', next!, { token: world.merchant.token });
    expect(second.status).toBe(200);
    expect(second.body.map((entry: any) => entry.order.uuid)).toEqual([...placed].reverse().slice(10));
    // The last page links the page after it: the end, 204 with no body and no Link.
    const afterLast = await api.call('GET', nextLink(second.headers)!, { token: world.merchant.token });
    expect(afterLast.status).toBe(204);
    expect(afterLast.headers.get('link')).toBeNull();
    // The C# SDK builds ?page=N itself for a start page: the same page; past the end, 204 with no body (it reads an empty list).
    const byPage = await api.call('GET', `${path()}?page=2`, { token: world.merchant.token });
    expect(byPage.body).toEqual(second.body);
    const end = await api.call('GET', `${path()}?page=5`, { token: world.merchant.token });
    expect(end.status).toBe(204);
    expect(end.text).toBe('');
    expect(end.headers.get('link')).toBeNull();
  });

  it('shows every field the clients read, refund_source and refunded_at only on a refunded order', async () => {
    const response = await api.call('GET', `${path()}?page=2`, { token: world.merchant.token });
    const byUuid = new Map(response.body.map((entry: any) => [entry.order.uuid, entry.order]));
    const refunded: any = byUuid.get(placed[1]);
    expect(refunded.refund_source).toBe('merchant');
    expect(refunded.refunded_at).toMatch(/\+00:00$/);
    const plain: any = byUuid.get(placed[0]);
    expect(plain).toEqual({
      uuid: placed[0],
      created_at: expect.stringMatching(/\+00:00$/),
      merchant_funded_credit_amount: 12,
      earn_amount: 0,
      loyalty_id: world.user.user.user_id,
      refunded_at: null,
      refund_source: null,
      spend_amount: 1100,
      tip_amount: 2,
      total_amount: 1102,
      location_id: world.location.location_id,
      user_display_name: 'Test U.',
    });
  });

  it("answers another merchant's token 401, a location without orders 204, a page past the cursorless limit 422", async () => {
    const other = await merchantFixture(world.app.app_id);
    const theirs = await api.call('GET', path(), { token: other.token });
    expect(theirs.status).toBe(401);
    const unknown = await api.call('GET', '/v14/locations/999999999/orders', { token: world.merchant.token });
    expect(unknown.status).toBe(401);
    const empty = await locationFixture(world.merchant.merchant.merchant_id);
    expect((await api.call('GET', `/v14/locations/${empty.location_id}/orders`, { token: world.merchant.token })).status).toBe(204);
    const deep = await api.call('GET', `${path()}?page=101`, { token: world.merchant.token });
    expect(deep.status).toBe(422);
    expect(deep.body[0].error).toMatchObject({ object: 'request', property: 'page', code: 'too_deep' });
  });

  it("answers the Ruby gem's locations(id).orders.list: untagged token, a JSON {} body on GET", async () => {
    const response = await api.call('GET', path(), {
      authorization: `token ${world.merchant.token}`,
      headers: { 'Content-Type': 'application/json' },
      rawBody: '{}',
    });
    expect(response.status).toBe(200);
    // The gem maps each element's 'order' hash; an unknown location is "not success".
    expect(response.body.map((entry: any) => entry.order.uuid)).toHaveLength(10);
    const bad = await api.call('GET', '/v14/locations/-25/orders', { authorization: `token ${world.merchant.token}`, rawBody: '{}' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
  });
});

describe('P13 GET /v15/managed_locations', () => {
  it("lists the merchant's locations, hidden ones too, in the C# SDK's and the docs' shape", async () => {
    const merchant = await merchantFixture(world.app.app_id);
    const shown = await locationFixture(merchant.merchant.merchant_id, {
      name: 'LU#3 - 101 Arch St.',
      street_address: '101 Arch St.',
      pos_location_identifier: '72921cb8-9393-11e9-bd5f-6f47f503104a',
    });
    const hidden = await locationFixture(merchant.merchant.merchant_id, { name: null, street_address: '1 Beach Dr', shown: false });
    const response = await api.call('GET', '/v15/managed_locations', { authorization: `token merchant="${merchant.token}"` });
    expect(response.status, response.text).toBe(200);
    expectShapeOf(response.body, clientPayload('csharp_v15_managed_locations__list.json').response_body);
    expectShapeOf(response.body, clientPayload('docs_v15_managed_locations__list.json').response_body, { nullable: ['$[].location.pos_location_identifier'] });
    expect(response.body).toEqual([
      {
        location: {
          address: '101 Arch St., Boston, MA',
          id: shown.location_id,
          merchant_id: merchant.merchant.merchant_id,
          merchant_name: merchant.merchant.name,
          name: 'LU#3 - 101 Arch St.',
          pos_location_identifier: '72921cb8-9393-11e9-bd5f-6f47f503104a',
          tip_preference: shown.merchant_tip_preference,
        },
      },
      { location: expect.objectContaining({ id: hidden.location_id, name: '1 Beach Dr', pos_location_identifier: null }) },
    ]);
    // Another merchant's token sees only its own.
    const other = await api.call('GET', '/v15/managed_locations', { token: world.merchant.token });
    expect(other.body.map((entry: any) => entry.location.id)).not.toContain(shown.location_id);
  });

  it('refuses a token without manage_merchant_orders (401)', async () => {
    const token = await issueToken({
      subject: 'merchant',
      merchantId: world.merchant.merchant.merchant_id,
      appId: world.app.app_id,
      permissions: ['manage_gift_cards'],
    });
    expect((await api.call('GET', '/v15/managed_locations', { authorization: `token merchant="${token}"` })).status).toBe(401);
  });
});

describe('P14 GET /v15 and /v14 merchants/:merchant_id/locations', () => {
  let merchant: Awaited<ReturnType<typeof merchantFixture>>;
  const ids: number[] = [];
  let hiddenId: number;

  beforeAll(async () => {
    merchant = await merchantFixture(world.app.app_id);
    for (let index = 0; index < 11; index++) {
      const location = await locationFixture(merchant.merchant.merchant_id, {
        latitude: 42.3 + index / 100,
        fulfillment_types: index % 3 === 0 ? ['in_store', 'pickup'] : ['in_store'],
      });
      ids.push(location.location_id);
    }
    hiddenId = (await locationFixture(merchant.merchant.merchant_id, { shown: false })).location_id;
  });

  it('v15 pages the shown locations for iOS (no credential) by Link on every page and ends with 204', async () => {
    const path = `/v15/merchants/${merchant.merchant.merchant_id}/locations`;
    const first = await api.call('GET', path);
    expect(first.status, first.text).toBe(200);
    expect(first.body.map((entry: any) => entry.location.id)).toEqual(ids.slice(0, 10));
    const next = nextLink(first.headers);
    expect(next).toMatch(new RegExp(`^${api.baseUrl}${path}\\?page=2&after=`));
    const second = await api.call('GET', next!);
    expect(second.body.map((entry: any) => entry.location.id)).toEqual(ids.slice(10));
    expect((await api.call('GET', nextLink(second.headers)!)).status).toBe(204);
    expect((await api.call('GET', `${path}?page=3`)).status).toBe(204);
    // iOS reads these fields of each location.
    const ios = clientPayload('ios_v15_merchants_merchant_id_locations__list.json').response_body[0].location;
    for (const field of Object.keys(ios).filter((name) => !['latitude', 'longitude'].includes(name))) expect(first.body[0].location).toHaveProperty(field);
    expect(first.body[0].location.visible).toBe(true);
  });

  it("v15 answers the C# SDK (its token sent, not needed) with its payload's fields; pickup filter and distance order as iOS asks", async () => {
    const path = `/v15/merchants/${merchant.merchant.merchant_id}/locations`;
    const response = await api.call('GET', path, { token: merchant.token });
    expect(response.status).toBe(200);
    // The SDK's own payloads show these as strings at one location and null at another: string or null.
    expectShapeOf(response.body, clientPayload('csharp_v15_merchants_merchant_id_locations__list.json').response_body, { nullable: ['$[].location.phone'] });
    expect(response.body.map((entry: any) => entry.location.id)).not.toContain(hiddenId);
    const pickup = await api.call('GET', `${path}?fulfillment_types=pickup&lat=42.4&lng=-71.05`);
    expect(pickup.body.map((entry: any) => entry.location.id)).toEqual([ids[9], ids[6], ids[3], ids[0]]);
    expect((await api.call('GET', '/v15/merchants/999999999/locations')).status).toBe(404);
    expect((await api.call('GET', `${path}?lat=42`)).status).toBe(422);
  });

  it("v14 answers the Ruby gem's merchants(id).locations.list: every location, hidden too, not paged", async () => {
    const response = await api.call('GET', `/v14/merchants/${merchant.merchant.merchant_id}/locations`, {
      authorization: `token ${merchant.token}`,
      rawBody: '{}',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('link')).toBeNull();
    expect(response.body.map((entry: any) => entry.location.id)).toEqual([...ids, hiddenId]);
    // The C# SDK reads id, name and merchant_tip_preference.
    expect(response.body[0]).toEqual({ location: { id: ids[0], name: 'Downtown', merchant_tip_preference: expect.any(String) } });
  });

  it('v14 refuses another merchant (401) and names an unknown merchant (404), as the gem expects "not success"', async () => {
    const other = await api.call('GET', `/v14/merchants/${merchant.merchant.merchant_id}/locations`, { token: world.merchant.token });
    expect(other.status).toBe(401);
    const unknown = await api.call('GET', '/v14/merchants/999999999/locations', { token: merchant.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual([{ error: { object: 'merchant', property: 'id', message: 'Merchant not found.' } }]);
    expect((await api.call('GET', '/v14/merchants/-25/locations', { token: merchant.token, rawBody: '{}' })).status).toBe(404);
  });
});

describe('P15 GET /v15 and /v14 locations/:location_id', () => {
  it("v15 answers the C# SDK's payload fields (its token is sent and ignored)", async () => {
    const location = await locationFixture(world.merchant.merchant.merchant_id, {
      categories: [2],
      yelp_url: 'http://www.yelp.com/biz/pizza-palace',
      phone: '(617) 555-0100',
    });
    const response = await api.call('GET', `/v15/locations/${location.location_id}`, { authorization: `token ${world.merchant.token}` });
    expect(response.status, response.text).toBe(200);
    // The SDK's own payloads show these as strings at one location and null at another: string or null.
    expectShapeOf(response.body, clientPayload('csharp_v15_locations_id__show.json').response_body, {
      nullable: ['$.location.hours', '$.location.facebook_url', '$.location.foodler_url'],
    });
    expect(response.body.location).toMatchObject({
      id: location.location_id,
      categories: [2],
      merchant_id: world.merchant.merchant.merchant_id,
      merchant_name: world.merchant.merchant.name,
      name: 'Downtown',
      phone: '(617) 555-0100',
      shown: true,
      street_address: '1 Main St',
      yelp_url: 'http://www.yelp.com/biz/pizza-palace',
      hours: 'Mon - Sun 7am - 9pm',
      delivery_menu_url: null,
    });
  });

  it('v14 answers the iOS v14 fields without a credential; a delivering location without a menu links none', async () => {
    const location = await locationFixture(world.merchant.merchant.merchant_id, { fulfillment_types: ['in_store', 'delivery'], delivery_radius_m: 5000 });
    const response = await api.call('GET', `/v14/locations/${location.location_id}`);
    expect(response.status, response.text).toBe(200);
    expectShapeOf(response.body, clientPayload('ios_v14_locations_id__show.json').response_body, {
      nullable: ['$.location.menu_url', ...V14_LOCATION_OPTIONAL_LINKS, '$.location.delivery_menu_url', '$.location.pickup_menu_url'],
    });
    expect(response.body.location.visible).toBe(true);
    // No menu published: null, not a link that answers 404 (issue 34.6; test/clients/client-fields.test.ts links one).
    expect(response.body.location).toMatchObject({ delivery_menu_url: null, pickup_menu_url: null });
  });

  it('answers 404 with no body for a hidden or unknown location (the C# SDK raises its "may not exist" error)', async () => {
    const hidden = await locationFixture(world.merchant.merchant.merchant_id, { shown: false });
    for (const path of [`/v15/locations/${hidden.location_id}`, `/v14/locations/${hidden.location_id}`, '/v15/locations/999999999', '/v15/locations/abc']) {
      const response = await api.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.text).toBe('');
    }
  });
});

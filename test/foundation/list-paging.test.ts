/**
 * The one paging rule of every list (docs/app-surface.md "Paging", issue 34 point 8): each list walked as
 * the SDKs walk it, first URL then every `Link` until the end, with the shared walker (test/support/paging.ts):
 * every page with items has a Link (the last one too), the position after the last item answers 204 with no
 * body and no Link, every item is seen once, filters ride along. Then per list: a bad page or cursor is a 422
 * in the contract's error format, a cursor reaches only the caller's own data, a stored last Link resumes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { createUser } from '#shared/domain/identity/users.ts';
import { LOCATIONS_PAGE_SIZE } from '#shared/domain/merchants/locations.ts';
import { ORDERS_PAGE_SIZE } from '#shared/domain/orders/user-orders.ts';
import { LOCATION_ORDERS_PAGE_SIZE } from '#shared/domain/orders/merchant-orders.ts';
import { EVENTS_PAGE_SIZE } from '#shared/domain/events/events.ts';
import { MAX_PAGE_WITHOUT_CURSOR } from '#shared/http/paging.ts';
import { buildDocument } from '#shared/openapi/document.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { appFixture } from '../support/fixtures.ts';
import { cardFixture } from '../support/cards.ts';
import { locationFixture, nextLink } from '../support/locations.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { walkPages } from '../support/paging.ts';

const api = useTestApi();
/** Orders pages: one full page and two more orders. */
const ORDERS = ORDERS_PAGE_SIZE + 2;
/** Locations of the world's merchant, its first one included: one full page and two more. */
const LOCATIONS = LOCATIONS_PAGE_SIZE + 2;
/** Cards added by users of the listing app: one full page of events and a few more. */
const CARDS = EVENTS_PAGE_SIZE + 4;

let world: OrderWorld;
let other: OrderWorld;
/** Orders of `world`'s user at its location, oldest first. */
const placed: string[] = [];
/** The world merchant's locations, in id order. */
const locationIds: number[] = [];
/** An app listing only the world's merchant, with a token of its own. */
let merchantApp: number;
let appToken: string;
let otherAppToken: string;

type Wrapped<K extends string, T = { id: number; uuid: string }> = Record<K, T>;
const orderKey = (item: Wrapped<'order'>) => item.order.uuid;
const locationKey = (item: Wrapped<'location'>) => item.location.id;
const eventKey = (item: Wrapped<'event', { id: string; type: string }>) => item.event.id;

/** 422 with the contract's error array naming the request parameter. */
function expectRefused(response: ApiResult, property: string): void {
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'request', property, message: expect.any(String) }) }]);
}

beforeAll(async () => {
  world = await orderWorld();
  other = await orderWorld();
  for (let index = 0; index < ORDERS; index++) placed.push((await placeOrder(api, world, { spend_amount: 500 + index })).body.order.uuid);
  await placeOrder(api, other);
  locationIds.push(world.location.location_id);
  for (let index = 1; index < LOCATIONS; index++) {
    locationIds.push(
      (
        await locationFixture(world.merchant.merchant.merchant_id, {
          latitude: 42.3 + index / 100,
          fulfillment_types: index % 2 === 0 ? ['in_store', 'pickup'] : ['in_store'],
        })
      ).location_id,
    );
  }
  merchantApp = (await appFixture({ global: false, merchantIds: [world.merchant.merchant.merchant_id] })).app.app_id;
  appToken = await issueToken({ subject: 'app', appId: world.app.app_id });
  otherAppToken = await issueToken({ subject: 'app', appId: other.app.app_id });
  // Users of the world's app adding cards: its events (credit_card.created), more than a page.
  const users = await Promise.all(
    Array.from({ length: CARDS / 2 }, (_, index) =>
      createUser(world.app.app_id, { email: `paging-${index}-${randomUUID()}@example.com`, first_name: 'Page', last_name: 'Walker' }),
    ),
  );
  await Promise.all(
    users.map(async (user) => {
      await cardFixture(user.user_id);
      await cardFixture(user.user_id);
    }),
  );
}, 120_000);

describe("the user's orders (GET /v15/apps/orders, its v14 and Ruby gem forms)", () => {
  it('walks newest first to a 204, a Link on every page, the last one too', async () => {
    const walk = await walkPages(api, '/v15/apps/orders', { call: { token: world.user.token }, keyOf: orderKey });
    expect(walk.items.map(orderKey)).toEqual([...placed].reverse());
    expect(walk.pages.map((page) => page.body.length)).toEqual([ORDERS_PAGE_SIZE, ORDERS - ORDERS_PAGE_SIZE]);
  });

  it('walks the v14 form as Android asks (page=1 first) to the same orders', async () => {
    const walk = await walkPages(api, `/v14/apps/${world.app.app_id}/orders?page=1`, { call: { token: world.user.token }, keyOf: orderKey });
    expect(walk.items.map(orderKey)).toEqual([...placed].reverse());
  });

  it('walks the Ruby gem form to an empty 200 (the gem maps the body), never a 204', async () => {
    const walk = await walkPages(api, '/v15/users/orders', {
      call: { authorization: `token user="${world.user.token}"`, body: {} },
      keyOf: orderKey,
      end: 'empty-list',
    });
    expect(walk.items.map(orderKey)).toEqual([...placed].reverse());
  });

  it("reaches only the caller's own orders with another user's cursor", async () => {
    const first = await api.call('GET', '/v15/apps/orders', { token: world.user.token });
    const cursor = new URL(nextLink(first.headers)!).searchParams.get('cursor')!;
    const theirs = await api.call('GET', `/v15/apps/orders?page=2&cursor=${cursor}`, { token: other.user.token });
    const seen = theirs.status === 200 ? theirs.body.map(orderKey) : [];
    expect(seen.filter((uuid: string) => placed.includes(uuid))).toEqual([]);
  });

  it.each([
    ['page=0', 'page'],
    ['page=x', 'page'],
    [`page=${MAX_PAGE_WITHOUT_CURSOR + 1}`, 'page'],
    ['cursor=!!!', 'cursor'],
    [`cursor=${Buffer.from('LOCATION#1').toString('base64url')}`, 'cursor'],
    [`cursor=${'A'.repeat(5000)}`, 'cursor'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `/v15/apps/orders?${query}`, { token: world.user.token }), property);
  });
});

describe("a location's orders (GET /v14/locations/:id/orders, merchant)", () => {
  const path = () => `/v14/locations/${world.location.location_id}/orders`;

  it('walks newest first to a 204, a Link on every page, the last one too', async () => {
    const walk = await walkPages(api, path(), { call: { token: world.merchant.token }, keyOf: orderKey });
    expect(walk.items.map(orderKey)).toEqual([...placed].reverse());
    expect(walk.pages.map((page) => page.body.length)).toEqual([LOCATION_ORDERS_PAGE_SIZE, ORDERS - LOCATION_ORDERS_PAGE_SIZE]);
  });

  it("reaches no other merchant's orders: their location is 401, our cursor on their location shows only theirs", async () => {
    const first = await api.call('GET', path(), { token: world.merchant.token });
    const cursor = new URL(nextLink(first.headers)!).searchParams.get('cursor')!;
    expect((await api.call('GET', `${path()}?page=2&cursor=${cursor}`, { token: other.merchant.token })).status).toBe(401);
    const theirs = await api.call('GET', `/v14/locations/${other.location.location_id}/orders?page=2&cursor=${cursor}`, { token: other.merchant.token });
    const seen = theirs.status === 200 ? theirs.body.map(orderKey) : [];
    expect(seen.filter((uuid: string) => placed.includes(uuid))).toEqual([]);
  });

  it.each([
    ['page=-1', 'page'],
    [`page=${MAX_PAGE_WITHOUT_CURSOR + 1}`, 'page'],
    ['cursor=%00%01', 'cursor'],
    [`cursor=${Buffer.from('USER#1').toString('base64url')}`, 'cursor'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `${path()}?${query}`, { token: world.merchant.token }), property);
  });
});

describe("an app's locations (GET /v15 and /v14 apps/:app_id/locations)", () => {
  it('walks in id order to a 204, carrying the filters and image size on every Link', async () => {
    for (const version of ['v15', 'v14']) {
      const query = '?fulfillment_types=in_store,pickup&image[width]=320&image[height]=200&image[density]=2';
      const walk = await walkPages(api, `/${version}/apps/${merchantApp}/locations${query}`, {
        keyOf: locationKey,
        carries: ['fulfillment_types', 'image[width]', 'image[height]', 'image[density]'],
      });
      expect(walk.items.map(locationKey)).toEqual(locationIds);
      expect(walk.pages.map((page) => page.body.length)).toEqual([LOCATIONS_PAGE_SIZE, LOCATIONS - LOCATIONS_PAGE_SIZE]);
    }
  });

  it('walks in distance order (page numbers only) to a 204, carrying lat, lng and the filter', async () => {
    const walk = await walkPages(api, `/v15/apps/${merchantApp}/locations?fulfillment_types=pickup&lat=42.3&lng=-71.05`, {
      keyOf: locationKey,
      carries: ['fulfillment_types', 'lat', 'lng'],
    });
    expect(walk.items.map(locationKey)).toEqual(locationIds.filter((_, index) => index % 2 === 0 && index > 0));
    expect(walk.urls.map((url) => new URL(url, api.baseUrl).searchParams.get('after'))).toEqual(walk.urls.map(() => null));
  });

  it("resumes from the last page's stored Link: 204 while nothing is new, then only the new location", async () => {
    const walk = await walkPages(api, `/v15/apps/${merchantApp}/locations`, { keyOf: locationKey });
    const stored = walk.urls.at(-1)!;
    const added = await locationFixture(world.merchant.merchant.merchant_id);
    locationIds.push(added.location_id);
    const resumed = await api.call('GET', stored);
    expect(resumed.status).toBe(200);
    expect(resumed.body.map(locationKey)).toEqual([added.location_id]);
    expect((await api.call('GET', nextLink(resumed.headers)!)).status).toBe(204);
  });

  it.each([
    ['page=1.5', 'page'],
    ['after=abc', 'after'],
    ['after=0', 'after'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `/v15/apps/${merchantApp}/locations?${query}`), property);
  });
});

describe("a merchant's locations (GET /v15/merchants/:merchant_id/locations)", () => {
  it('walks the shown locations to a 204, a Link on every page', async () => {
    const walk = await walkPages(api, `/v15/merchants/${world.merchant.merchant.merchant_id}/locations?fulfillment_types=in_store`, {
      keyOf: locationKey,
      carries: ['fulfillment_types'],
    });
    expect(walk.items.map(locationKey)).toEqual(locationIds);
  });

  it.each([
    ['page=null&after=-3', 'after'],
    ['page=0', 'page'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/locations?${query}`), property);
  });
});

describe('every location as a summary (GET /v14/locations)', () => {
  it('walks the change feed to a 204 and resumes from the stored last Link with only what changed', async () => {
    const walk = await walkPages(api, '/v14/locations', { keyOf: locationKey });
    expect(walk.items.map(locationKey)).toEqual(expect.arrayContaining([...locationIds, other.location.location_id]));
    const stored = walk.urls.at(-1)!;
    expect(new URL(stored).searchParams.get('last_id')).toBe(String(walk.items.at(-1)!.location.id));
    const added = await locationFixture(other.merchant.merchant.merchant_id);
    const resumed = await api.call('GET', stored);
    expect(resumed.body.map(locationKey)).toEqual([added.location_id]);
    expect((await api.call('GET', nextLink(resumed.headers)!)).status).toBe(204);
  });

  it.each([
    ['since=yesterday', 'since'],
    ['since=2026-01-01T00:00:00Z&last_id=x', 'last_id'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `/v14/locations?${query}`), property);
  });
});

describe("the caller's events (GET /v15/events)", () => {
  it('walks oldest first to a 204, a Link on every page, the type filter carried', async () => {
    const walk = await walkPages(api, '/v15/events?types=credit_card.created', { call: { token: appToken }, keyOf: eventKey, carries: ['types'] });
    // The world user's card (orderWorld) and every card added for the app.
    expect(walk.items).toHaveLength(CARDS + 1);
    expect(walk.items.every((item) => item.event.type === 'credit_card.created')).toBe(true);
    expect(walk.pages.map((page) => page.body.length)).toEqual([EVENTS_PAGE_SIZE, CARDS + 1 - EVENTS_PAGE_SIZE]);
    const ids = walk.items.map(eventKey);
    expect(ids).toEqual([...ids].sort());
  });

  it('resumes from the stored last Link with only the new event; our position shows another app none of ours', async () => {
    const walk = await walkPages(api, '/v15/events', { call: { token: appToken }, keyOf: eventKey });
    const ours = new Set(walk.items.map(eventKey));
    const stored = walk.urls.at(-1)!;
    await cardFixture(world.user.user.user_id);
    const resumed = await api.call('GET', stored, { token: appToken });
    expect(resumed.status).toBe(200);
    expect(resumed.body.map((item: Wrapped<'event', { id: string; type: string }>) => item.event.type)).toEqual(['credit_card.created']);
    expect(ours.has(resumed.body[0].event.id)).toBe(false);
    const theirs = await walkPages(api, `/v15/events?after=${walk.items[0]!.event.id}`, { call: { token: otherAppToken }, keyOf: eventKey });
    expect(theirs.items.length).toBeGreaterThan(0);
    expect(theirs.items.filter((item) => ours.has(item.event.id))).toEqual([]);
  });

  it.each([
    ['after=evt_nope', 'after'],
    ['types=no.such', 'types'],
  ])('refuses %s with 422', async (query, property) => {
    expectRefused(await api.call('GET', `/v15/events?${query}`, { token: appToken }), property);
  });
});

describe('the OpenAPI document', () => {
  it("shows the Link header on every paged list's 200, and on no other list", async () => {
    const document = await buildDocument();
    const paged = [
      '/v15/apps/orders',
      '/v14/apps/{app_id}/orders',
      '/v15/users/orders',
      '/v14/locations/{location_id}/orders',
      '/v15/apps/{app_id}/locations',
      '/v14/apps/{app_id}/locations',
      '/v15/merchants/{merchant_id}/locations',
      '/v14/locations',
      '/v15/events',
    ];
    for (const path of paged) expect(document.paths[path]!.get!.responses['200'].headers?.Link, path).toBeDefined();
    for (const path of ['/v15/managed_locations', '/v15/webhook_endpoints', '/v14/merchants/{merchant_id}/locations']) {
      expect(document.paths[path]!.get!.responses['200'].headers?.Link, path).toBeUndefined();
    }
  });
});

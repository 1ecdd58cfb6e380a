/**
 * What an app reads before it builds a cart, through HTTP against the local stack: menus by id (what
 * `menu_url` points at), suggested orders (past and popular carts), and the location that delivers to a
 * saved address. Real clients' bodies from test/fixtures/client-payloads are the reference shapes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMenuForLocation } from '#shared/domain/order-ahead/menu.ts';
import { sampleMenu, SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { MAX_SUGGESTIONS, rememberCompletedCart } from '#shared/domain/order-ahead/suggestions.ts';
import { getProposedOrder } from '#shared/domain/order-ahead/orders.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import {
  FAR_AWAY,
  iosCart,
  type CartLine,
  NEARBY,
  orderAheadLocationFixture,
  orderAheadUserFixture,
  pollLikeIos,
  pollUntilSettled,
  startOrderAheadTestApi,
  STORE,
} from '../support/order-ahead.ts';
import { clientPayload, expectShapeOf } from '../support/payloads.ts';

const api = useTestApi(startOrderAheadTestApi);
type Place = Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let kitchen: Place;
let within: NonNullable<Parameters<typeof orderAheadLocationFixture>[0]>['within'];

beforeAll(async () => {
  const { app } = await appFixture({ global: true });
  within = { app, merchant: await merchantFixture(app.app_id) };
  kitchen = await orderAheadLocationFixture({ within, location: { phone: '(617) 555-0100' } });
});

async function customer() {
  const user = await orderAheadUserFixture(kitchen.app.app_id);
  await cardFixture(user.user.user_id);
  return user;
}

/** Start -> valid -> complete -> poll until completed, as an app does; returns the order's uuid. */
async function completedOrder(token: string, lines: CartLine[], place: Place = kitchen, extra: Record<string, unknown> = {}): Promise<string> {
  const started = await api.call('POST', '/v15/order_ahead/orders', { token, body: iosCart(place.location.location_id, lines, extra) });
  const valid = await pollUntilSettled(api, started.body.order.order_url, token);
  expect(valid.last.status, valid.last.text).toBe(200);
  const submitted = await api.call('POST', valid.last.body.order.order_completion_url, { token });
  expect(submitted.status, submitted.text).toBe(202);
  const { last } = await pollLikeIos(api, submitted.body.order.order_url, token);
  expect(last.status, last.text).toBe(200);
  return started.body.order.uuid;
}

const TOTS: CartLine = { id: SAMPLE_IDS.tots, quantity: 1, option_ids: [SAMPLE_IDS.large], special_instructions: 'Extra crispy please.' };
const BURRITO: CartLine = { id: SAMPLE_IDS.burrito, quantity: 2, option_ids: [SAMPLE_IDS.cheese, SAMPLE_IDS.salsa] };

describe('menus by id (menu_url)', () => {
  it('serves the menu at /v15/order_ahead/menus/:menu_id without a token, the same as the location path, with the fields LevelUp documents', async () => {
    const byId = await api.call('GET', `/v15/order_ahead/menus/${kitchen.menu.menu_id}`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('cache-control')).toBe('public, max-age=60');
    const byLocation = await api.call('GET', `/v15/order_ahead/locations/${kitchen.location.location_id}/menu`);
    expect(byId.text).toBe(byLocation.text);

    const menu = byId.body.menu;
    expect(menu).toMatchObject({ id: kitchen.menu.menu_id, allows_special_instructions: true, special_instructions_character_limit: 80 });
    expect(menu.category_groups).toEqual([
      { category_group: { id: SAMPLE_IDS.foodGroup, name: 'Food', description: 'Made to order.', display_order: 1 } },
      { category_group: { id: SAMPLE_IDS.drinksGroup, name: 'Drinks and sweets', description: null, display_order: 2 } },
    ]);
    expect(menu.categories[0].category.category_group_id).toBe(SAMPLE_IDS.foodGroup);
    const tots = menu.categories[0].category.items[0].item;
    expect(tots).toMatchObject({
      metadata: { spicy: false, station: 'fryer' },
      allows_special_instructions: true,
      special_instructions_character_limit: 80,
      tax_rate: 0.1,
      timescopes: [],
      image_url: `${api.baseUrl}/v15/order_ahead/menus/${kitchen.menu.menu_id}/items/${SAMPLE_IDS.tots}/image`,
    });
    // No picture, no image URL (as the iOS fixture's burrito).
    expect(menu.categories[1].category.items[0].item.image_url).toBeNull();
    const breakfast = menu.categories.find((entry: any) => entry.category.name === 'Breakfast').category.items[0].item;
    expect(breakfast.timescopes).toEqual([
      { day_of_week_starts_at: 'Monday', day_of_week_ends_at: 'Sunday', time_of_day_starts_at: '06:00', time_of_day_ends_at: '10:30' },
    ]);

    const maps = ['$.menu.categories[].category.items[].item.nutrition', '$.menu.categories[].category.items[].item.metadata'];
    // An item without a SKU in the merchant's menu has a null sku (the iOS SDK reads it as absent).
    const item = '$.menu.categories[].category.items[].item';
    expectShapeOf(byId.body, clientPayload('ios_order_ahead_menu__show.json').response_body, {
      maps,
      nullable: ['$.menu.categories[].category.description', `${item}.image_url`, `${item}.sku`],
    });
    const docs = clientPayload('docs_v15_order_ahead_menus_id__show.json').response_body_excerpt;
    // The docs show a category group's display_order as "1"; every display_order is an integer here (the reference's advice).
    docs.menu.category_groups[0].category_group.display_order = 1;
    expectShapeOf(byId.body, docs, {
      maps,
      nullable: [
        '$.menu.category_groups[].category_group.description',
        '$.menu.categories[].category.category_group_id',
        '$.menu.categories[].category.description',
        `${item}.image_url`,
        `${item}.sku`,
      ],
    });
  });

  it('answers 404 (empty) for an id no menu has', async () => {
    for (const path of ['/v15/order_ahead/menus/999999', '/v15/order_ahead/menus/abc', '/v15/order_ahead/menus/0']) {
      const response = await api.call('GET', path);
      expect(response.status, path).toBe(404);
      expect(response.text).toBe('');
    }
  });
});

describe('suggested orders', () => {
  it('lists two identical past orders once, ranked above a cart ordered once, ready to send again', async () => {
    const user = await customer();
    await completedOrder(user.token, [TOTS]);
    const lastIdentical = await completedOrder(user.token, [TOTS]);
    const other = await completedOrder(user.token, [BURRITO], kitchen, { special_instructions: 'Call when outside.' });

    const response = await api.call('GET', '/v15/order_ahead/orders/suggested?types=past', { token: user.token });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toHaveLength(2);
    const [first, second] = response.body.map((entry: any) => entry.order);
    expect(first).toMatchObject({
      banner: 'past',
      uuid: lastIdentical,
      location_id: kitchen.location.location_id,
      merchant_name: kitchen.merchant.merchant.name,
      menu_url: `${api.baseUrl}/v15/order_ahead/menus/${kitchen.menu.menu_id}`,
      description: 'Tater Tots',
      conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
      items: [{ item: { id: SAMPLE_IDS.tots, quantity: 1, special_instructions: 'Extra crispy please.', option_ids: [SAMPLE_IDS.large] } }],
      special_instructions: null,
    });
    expect(first.total_amount).toBeGreaterThan(0);
    expect(first.walking_time_minutes).toBeUndefined();
    expect(second).toMatchObject({ banner: 'past', uuid: other, description: 'Burrito', special_instructions: 'Call when outside.' });

    // The iOS fixture's shape (it says wanted_at where every other object says desired_ready_time, which is what the SDK reads).
    const ios = clientPayload('ios_v15_order_ahead_orders_suggested__list.json').response_body;
    for (const entry of ios) delete entry.order.conveyance.wanted_at;
    expectShapeOf(response.body, ios, {
      nullable: ['$[].order.conveyance.delivery_address_id', '$[].order.special_instructions', '$[].order.items[].item.special_instructions'],
    });
    expect((await api.call('GET', first.menu_url)).status).toBe(200);

    // A suggestion is a cart a start accepts as it is.
    const again = await api.call('POST', '/v15/order_ahead/orders', {
      token: user.token,
      body: { order: { location_id: first.location_id, conveyance: first.conveyance, items: first.items } },
    });
    expect((await pollUntilSettled(api, again.body.order.order_url, user.token)).last.status).toBe(200);
  });

  it("offers the location's popular carts without anyone's instructions or address, filters by location and type, and gives walking time", async () => {
    const regular = await customer();
    const stranger = await customer();
    await completedOrder(regular.token, [BURRITO], kitchen, { special_instructions: 'Ring twice, ask for Sam.' });
    await completedOrder(regular.token, [BURRITO], kitchen, { special_instructions: 'Ring twice, ask for Sam.' });

    const here = `/v15/order_ahead/orders/suggested?location_id=${kitchen.location.location_id}`;
    const popular = await api.call('GET', `${here}&types=popular,unknown&lat=${NEARBY.latitude}&lng=${NEARBY.longitude}`, { token: stranger.token });
    expect(popular.status, popular.text).toBe(200);
    const burrito = popular.body.map((entry: any) => entry.order).find((order: any) => order.description === 'Burrito');
    expect(burrito).toMatchObject({ banner: 'popular', special_instructions: null, conveyance: { fulfillment_type: 'pickup', delivery_address_id: null } });
    expect(burrito.items.every((entry: any) => entry.item.special_instructions === null)).toBe(true);
    expect(burrito.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(popular.text).not.toContain('Sam');
    expect(burrito.walking_time_minutes).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(burrito.walking_time_minutes)).toBe(true);

    // The stranger has no past carts; the regular's burrito is a past cart for them, so listed once, as past.
    expect((await api.call('GET', `${here}&types=past`, { token: stranger.token })).body).toEqual([]);
    const own = await api.call('GET', here, { token: regular.token });
    expect(own.body.filter((entry: any) => entry.order.description === 'Burrito').map((entry: any) => entry.order.banner)).toEqual(['past']);
    // Another location: nothing of this one.
    const elsewhere = await orderAheadLocationFixture({ within });
    expect((await api.call('GET', `/v15/order_ahead/orders/suggested?location_id=${elsewhere.location.location_id}`, { token: regular.token })).body).toEqual(
      [],
    );

    const half = await api.call('GET', `${here}&lat=${STORE.latitude}`, { token: regular.token });
    expect(half.status).toBe(422);
    expect(half.body[0].error).toMatchObject({ object: 'request', property: 'lng' });
  });

  it('drops carts that no longer fit the menu, and shows at most 25', async () => {
    const user = await customer();
    const place = await orderAheadLocationFixture({ within });
    await completedOrder(user.token, [TOTS], place);
    await completedOrder(user.token, [{ id: SAMPLE_IDS.water, quantity: 1 }], place);
    const path = `/v15/order_ahead/orders/suggested?location_id=${place.location.location_id}&types=past`;
    // A cart is remembered just after its order completes (after the state the poll reads), so wait for both.
    await expect.poll(async () => (await api.call('GET', path, { token: user.token })).body).toHaveLength(2);

    // The merchant drops the large size of the tots: that cart no longer fits; the water does.
    const menu = sampleMenu();
    const tots = menu.categories[0]!.items[0]!;
    tots.option_groups![0]!.options = tots.option_groups![0]!.options.filter((option) => option.id !== SAMPLE_IDS.large);
    await createMenuForLocation(place.location.location_id, menu);
    const after = await api.call('GET', path, { token: user.token });
    expect(after.body.map((entry: any) => entry.order.description)).toEqual(['Water']);

    // Thirty distinct carts remembered (as the workflow remembers them): the list stops at 25.
    const stored = (await getProposedOrder(after.body[0].order.uuid))!;
    for (let quantity = 1; quantity <= 30; quantity++) {
      const priced = { ...stored.priced!, items: stored.priced!.items.map((line) => ({ ...line, quantity })) };
      await rememberCompletedCart({ ...stored, uuid: `${stored.uuid.slice(0, 24)}${String(quantity).padStart(8, '0')}`, priced });
    }
    const many = await api.call('GET', path, { token: user.token });
    expect(many.body).toHaveLength(MAX_SUGGESTIONS);
  });
});

describe('delivery location of a saved address', () => {
  it('answers the nearest location that delivers there, with its menu, and 404 outside every delivery area', async () => {
    const inside = await orderAheadUserFixture(kitchen.app.app_id, NEARBY);
    const response = await api.call('GET', `/v15/user_addresses/${inside.address.address_id}/delivery_location`, { token: inside.token });
    expect(response.status, response.text).toBe(200);
    const location = response.body.location;
    expect(location).toMatchObject({
      id: expect.any(Number),
      merchant_id: kitchen.merchant.merchant.merchant_id,
      phone: expect.any(String),
      visible: true,
      shown: true,
      delivery_menu_url: expect.stringMatching(new RegExp(`^${api.baseUrl}/v15/order_ahead/menus/\\d+$`)),
    });
    expect(location.pickup_menu_url).toBe(location.delivery_menu_url);
    const menu = await api.call('GET', location.delivery_menu_url);
    expect(menu.status).toBe(200);
    expect(menu.body.menu.location_id).toBe(location.id);
    // The fixture's coordinates are strings; the iOS SDK reads numbers or numeric strings, and the contract's Location has numbers.
    const ios = clientPayload('ios_v15_user_addresses_id_delivery_location__show.json').response_body;
    ios.location.latitude = Number(ios.location.latitude);
    ios.location.longitude = Number(ios.location.longitude);
    expectShapeOf(response.body, ios);

    const outside = await orderAheadUserFixture(kitchen.app.app_id, FAR_AWAY);
    const none = await api.call('GET', `/v15/user_addresses/${outside.address.address_id}/delivery_location`, { token: outside.token });
    expect(none.status).toBe(404);
    expect(none.text).toBe('');

    // Someone else's address is not found either.
    const peek = await api.call('GET', `/v15/user_addresses/${inside.address.address_id}/delivery_location`, { token: outside.token });
    expect(peek.status).toBe(404);
    expect(peek.text).toBe('');
  });
});

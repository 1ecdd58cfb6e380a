import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';

const api = useTestApi();
let world: OrderWorld;
let otherMerchantWorld: OrderWorld;
const placed: string[] = [];

beforeAll(async () => {
  world = await orderWorld({ credit: 50 });
  // Orders of the same user at a second merchant (with its own location).
  const other = await merchantFixture(world.app.app_id);
  const otherLocation = await locationFixture(other.merchant.merchant_id);
  otherMerchantWorld = { ...world, merchant: other, location: otherLocation };
  const first = await placeOrder(api, world, {
    spend_amount: 1000,
    applied_discount_amount: 50,
    tip_amount: 100,
    tax_amount: 80,
    identifier_from_merchant: 'T-1',
    items: [
      {
        item: {
          name: 'Hashbrowns',
          description: 'Griddled',
          quantity: 1,
          charged_price_amount: 299,
          standard_price_amount: 299,
          sku: '01abc192',
          category: 'Sides',
          children: [{ item: { name: 'Cheese', description: 'Covered', quantity: 2, charged_price_amount: 100 } }],
        },
      },
      { item: { name: 'Can Coke', description: '12oz', quantity: 2, charged_price_amount: 398, upc: '04963406' } },
    ],
  });
  placed.push(first.body.order.uuid);
  for (let index = 0; index < 11; index++) {
    const response = await placeOrder(api, index % 2 === 0 ? otherMerchantWorld : world, { spend_amount: 500 + index });
    placed.push(response.body.order.uuid);
  }
});

describe('GET /v15/apps/orders', () => {
  it("pages the user's orders newest first with Link on every page, the last one too, and ends with 204", async () => {
    const first = await api.call('GET', '/v15/apps/orders', { token: world.user.token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    expect(first.body.map((entry: any) => entry.order.uuid)).toEqual([...placed].reverse().slice(0, 10));
    const link = first.headers.get('link');
    expect(link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v15\/apps\/orders\?page=2&cursor=[^>]+>; rel="next"$/);
    const nextUrl = /^<([^>]+)>/.exec(link!)![1]!;
    const second = await api.call('GET', nextUrl, { token: world.user.token });
    expect(second.status).toBe(200);
    expect(second.body.map((entry: any) => entry.order.uuid)).toEqual([...placed].reverse().slice(10));
    // The last page links the page after it, which is the end: 204, no body, no Link.
    const afterLast = await api.call('GET', /^<([^>]+)>/.exec(second.headers.get('link')!)![1]!, { token: world.user.token });
    expect(afterLast.status).toBe(204);
    expect(afterLast.text).toBe('');
    expect(afterLast.headers.get('link')).toBeNull();
    // page=N alone works too, and past the end is 204 with no body and no Link.
    const byPage = await api.call('GET', '/v15/apps/orders?page=2', { token: world.user.token });
    expect(byPage.body).toEqual(second.body);
    const end = await api.call('GET', '/v15/apps/orders?page=3', { token: world.user.token });
    expect(end.status).toBe(204);
    expect(end.text).toBe('');
    expect(end.headers.get('link')).toBeNull();
  });

  it('shows list columns only', async () => {
    const response = await api.call('GET', '/v15/apps/orders?page=2', { token: world.user.token });
    const oldest = response.body.at(-1).order;
    expect(oldest).toEqual({
      balance_amount: 1050,
      bundle_closed_at: expect.any(String),
      bundle_descriptor: world.merchant.merchant.name,
      contribution_amount: 0,
      contribution_target_name: null,
      created_at: expect.stringMatching(/\+00:00$/),
      credit_applied_amount: 50,
      credit_earned_amount: 0,
      identifier_from_merchant: 'T-1',
      location_extended_address: null,
      location_id: world.location.location_id,
      location_locality: 'Boston',
      location_postal_code: '02110',
      location_region: 'MA',
      location_street_address: '1 Main St',
      merchant_id: world.merchant.merchant.merchant_id,
      merchant_name: world.merchant.merchant.name,
      refunded_at: null,
      spend_amount: 950,
      tip_amount: 100,
      total_amount: 1050,
      transacted_at: expect.any(String),
      uuid: placed[0],
    });
  });

  it("lists only the app's merchants' orders for an app that is not global", async () => {
    const { app } = await appFixture({ global: false, merchantIds: [world.merchant.merchant.merchant_id] });
    const token = await issueToken({ subject: 'user', userId: world.user.user.user_id, appId: app.app_id, permissions: USER_PERMISSIONS, unlimited: false });
    const response = await api.call('GET', '/v15/apps/orders', { token });
    expect(response.status).toBe(200);
    const expected = placed.filter((_, index) => index === 0 || index % 2 === 0).reverse();
    expect(response.body.map((entry: any) => entry.order.uuid)).toEqual(expected);
    expect(response.body.every((entry: any) => entry.order.merchant_id === world.merchant.merchant.merchant_id)).toBe(true);
    // One page holds them all; its Link leads to the end.
    expect((await api.call('GET', /^<([^>]+)>/.exec(response.headers.get('link')!)![1]!, { token })).status).toBe(204);
  });

  it('answers 204 to a user without orders and 401 without read_user_orders', async () => {
    const stranger = await orderWorld();
    expect((await api.call('GET', '/v15/apps/orders', { token: stranger.user.token })).status).toBe(204);
    const token = await issueToken({
      subject: 'user',
      userId: stranger.user.user.user_id,
      appId: stranger.app.app_id,
      permissions: ['read_user_basic_info'],
      unlimited: false,
    });
    expect((await api.call('GET', '/v15/apps/orders', { token })).status).toBe(401);
  });
});

describe('GET /v15/orders/:uuid', () => {
  it('answers the detail columns with items and children', async () => {
    const response = await api.call('GET', `/v15/orders/${placed[0]}`, { token: world.user.token });
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({
      id: expect.any(Number),
      uuid: placed[0],
      location_name: 'Downtown',
      location_latitude: 42.35,
      location_longitude: -71.05,
      tax_amount: 80,
      balance_amount: 1050,
    });
    expect(response.body.order.items).toEqual([
      {
        item: {
          category: 'Sides',
          description: 'Griddled',
          name: 'Hashbrowns',
          quantity: 1,
          sku: '01abc192',
          upc: null,
          charged_price_amount: 299,
          standard_price_amount: 299,
          children: [
            {
              item: {
                category: null,
                description: 'Covered',
                name: 'Cheese',
                quantity: 2,
                sku: null,
                upc: null,
                charged_price_amount: 100,
                standard_price_amount: 100,
                children: [],
              },
            },
          ],
        },
      },
      {
        item: {
          category: null,
          description: '12oz',
          name: 'Can Coke',
          quantity: 2,
          sku: null,
          upc: '04963406',
          charged_price_amount: 398,
          standard_price_amount: 398,
          children: [],
        },
      },
    ]);
    const plain = await api.call('GET', `/v15/orders/${placed[1]}`, { token: world.user.token });
    expect(plain.body.order.tax_amount).toBeNull();
    expect(plain.body.order.items).toEqual([]);
  });

  it("answers 404 with an empty body for another user's order and an unknown one", async () => {
    const stranger = await orderWorld();
    const theirs = await api.call('GET', `/v15/orders/${placed[0]}`, { token: stranger.user.token });
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe('');
    const unknown = await api.call('GET', '/v15/orders/0123456789abcdef0123456789abcdef', { token: world.user.token });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('');
  });
});

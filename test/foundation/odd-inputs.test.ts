/**
 * The odd inputs of issue 12, point 10, through HTTP against the local stack: prototype-named keys in
 * custom_attributes and denormal or extreme numbers in coordinates and tip_percent answer below 500, in the
 * contract's error format, and what is accepted is stored as sent (a key named `constructor` is just a key).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { contractErrorProblem } from '../support/fuzz.ts';
import { iosCart, orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

const api = useTestApi(() => startOrderAheadTestApi());
let fixture: Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let customer: Awaited<ReturnType<typeof orderAheadUserFixture>>;

beforeAll(async () => {
  fixture = await orderAheadLocationFixture();
  customer = await orderAheadUserFixture(fixture.app.app_id);
});

function expectHandled(response: { status: number; text: string }, what: string) {
  expect(response.status, `${what}: ${response.text}`).toBeLessThan(500);
  expect(contractErrorProblem(response), what).toBeUndefined();
}

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const ODD_NUMBERS = [5e-324, -5e-324, Number.MIN_VALUE * 3, 1e-310, 1e308, -1e308, 90.00000000000001, 0, -0];

describe('custom_attributes with prototype-named keys', () => {
  it.each(PROTOTYPE_KEYS)('PUT /v15/users and PUT /v14/users/:id with a "%s" key', async (key) => {
    const user = await userFixture(fixture.app.app_id, { unlimited: true });
    // Raw JSON: JSON.stringify would drop a __proto__ key an object literal set as the prototype.
    const v15 = await api.call('PUT', '/v15/users', { token: user.token, rawBody: `{"user":{"custom_attributes":{"${key}":"x","plain":"y"}}}` });
    expectHandled(v15, `v15 ${key}`);
    if (key === '__proto__') {
      // The body parser refuses a __proto__ key anywhere (prototype poisoning): 400, nothing stored.
      expect(v15.status, v15.text).toBe(400);
      expect((await api.call('GET', '/v15/users', { token: user.token })).body.user.custom_attributes).toEqual({});
      return;
    }
    expect(v15.status).toBe(200);
    expect(v15.body.user.custom_attributes).toEqual(JSON.parse(`{"${key}":"x","plain":"y"}`));
    const shown = await api.call('GET', '/v15/users', { token: user.token });
    expect(Object.entries(shown.body.user.custom_attributes)).toEqual(
      expect.arrayContaining([
        [key, 'x'],
        ['plain', 'y'],
      ]),
    );

    const v14 = await api.call('PUT', `/v14/users/${user.user.user_id}`, { token: user.token, rawBody: `{"user":{"custom_attributes":{"${key}":"z"}}}` });
    expectHandled(v14, `v14 ${key}`);
    // A null value removes the key, even a prototype-named one.
    const removed = await api.call('PUT', '/v15/users', { token: user.token, rawBody: `{"user":{"custom_attributes":{"${key}":null}}}` });
    expectHandled(removed, `remove ${key}`);
    expect(removed.status).toBe(200);
    expect(Object.keys(removed.body.user.custom_attributes)).not.toContain(key);
  });

  it.each(PROTOTYPE_KEYS)('sign-up through an app with a "%s" key', async (key) => {
    const { apiKey } = await appFixture();
    const response = await api.call('POST', '/v15/apps/users', {
      rawBody: `{"api_key":"${apiKey}","user":{"email":"odd-${key.replace(/_/g, '')}-${Date.now()}@example.com","first_name":"Odd","last_name":"Keys","custom_attributes":{"${key}":"x"}},"permission_keynames":["read_user_basic_info"]}`,
    });
    expectHandled(response, key);
  });

  it('a non-object custom_attributes, or values that are not strings, are a 422', async () => {
    const user = await userFixture(fixture.app.app_id, { unlimited: true });
    for (const value of ['"text"', '[1,2]', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"__proto__":{"polluted":"yes"}}', '{"a":1}']) {
      const response = await api.call('PUT', '/v15/users', { token: user.token, rawBody: `{"user":{"custom_attributes":${value}}}` });
      expectHandled(response, value);
      expect([400, 422], value).toContain(response.status);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('odd numbers in coordinates and tip_percent', () => {
  it.each(ODD_NUMBERS)('user address coordinates of %s', async (value) => {
    const address = { address_type: 'delivery', street_address: '1 Main St', locality: 'Boston', region: 'MA', postal_code: '02110' };
    for (const coordinates of [
      { latitude: value, longitude: -71.05 },
      { latitude: 42.36, longitude: value },
      { latitude: value, longitude: value },
    ]) {
      const response = await api.call('POST', '/v15/user_addresses', { token: customer.token, body: { user_address: { ...address, ...coordinates } } });
      expectHandled(response, JSON.stringify(coordinates));
    }
  });

  it.each(ODD_NUMBERS)('locations near lat/lng %s', async (value) => {
    const response = await api.call('GET', `/v15/apps/${fixture.app.app_id}/locations?lat=${value}&lng=${value}`);
    expectHandled(response, String(value));
  });

  it.each([5e-324, -5e-324, 1e-310, 99.99999999999999, 1e308])('an order-ahead cart with tip_percent %s', async (tipPercent) => {
    const cart = iosCart(fixture.location.location_id, [{ id: SAMPLE_IDS.tots, quantity: 1, special_instructions: null, option_ids: [SAMPLE_IDS.large] }], {
      tip_percent: tipPercent,
    });
    const upsells = await api.call('POST', '/v15/upsells', { token: customer.token, body: cart });
    expectHandled(upsells, `upsells ${tipPercent}`);
    const started = await api.call('POST', '/v15/order_ahead/orders', { token: customer.token, body: cart });
    expectHandled(started, `start ${tipPercent}`);
    if (started.status === 202 || started.status === 200) {
      const { last } = await pollUntilSettled(api, new URL(started.body.order.order_url ?? started.body.order.url).pathname, customer.token);
      expectHandled(last, `poll ${tipPercent}`);
    }
  });
});

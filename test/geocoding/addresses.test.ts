import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { distanceInMeters } from '#shared/domain/merchants/locations.ts';
import { sandboxPosition } from '#shared/geocoding/sandbox.ts';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { iosCart, orderAheadLocationFixture, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

/**
 * Addresses get coordinates: apps send addresses without latitude/longitude and expect them back,
 * and a delivery to such an address must validate. Through HTTP, against the local stack (its
 * geocoder is the offline postal-code sandbox, docs/geocoding.md).
 */

const api = useTestApi(startOrderAheadTestApi);
let fixture: Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let user: Awaited<ReturnType<typeof userFixture>>;

beforeAll(async () => {
  fixture = await orderAheadLocationFixture();
  user = await userFixture(fixture.app.app_id);
});

const docsCreate = clientPayload('docs_v15_user_addresses__create.json');
const docsUpdate = clientPayload('docs_v15_user_addresses_id__update.json');
const iosCreate = clientPayload('ios_v15_user_addresses__create_and_list.json');
/** Where LevelUp's own API placed a 02114 Boston address (the v15 docs' update example). */
const levelUpPosition = { lat: docsUpdate.response_body.user_address.latitude, lng: docsUpdate.response_body.user_address.longitude };
const at = (address: { latitude: number; longitude: number }) => ({ lat: address.latitude, lng: address.longitude });

function createAddress(body: unknown, token = user.token) {
  return api.call('POST', '/v15/user_addresses', { token, body });
}

function deliveryCart(addressId: number) {
  return iosCart(fixture.location.location_id, [{ id: SAMPLE_IDS.tots, quantity: 1, special_instructions: null, option_ids: [SAMPLE_IDS.large] }], {
    conveyance: { fulfillment_type: 'delivery', desired_ready_time: null, delivery_address_id: addressId },
  });
}

async function deliverTo(addressId: number) {
  const started = await api.call('POST', '/v15/order_ahead/orders', { token: user.token, body: deliveryCart(addressId) });
  expect(started.status).toBe(200);
  return pollUntilSettled(api, started.body.order.order_url, user.token);
}

describe('an address created without coordinates', () => {
  it('comes back (and is listed) with coordinates near its postal code, from the docs body', async () => {
    expect(docsCreate.request_body.user_address).not.toHaveProperty('latitude');
    const created = await createAddress(docsCreate.request_body);
    expect(created.status).toBe(docsCreate.response_status);
    expect(created.body.user_address).toMatchObject({ ...docsCreate.response_body.user_address, latitude: expect.any(Number), longitude: expect.any(Number) });
    expect(distanceInMeters(at(created.body.user_address), levelUpPosition)).toBeLessThan(1_000);
    const listed = (await api.call('GET', '/v15/user_addresses', { token: user.token })).body.find(
      (entry: any) => entry.user_address.id === created.body.user_address.id,
    );
    expect(listed.user_address).toEqual(created.body.user_address);
  });

  it("and a delivery to it validates (the iOS body, an address in the store's delivery area)", async () => {
    const template = iosCreate.request_body_template.user_address;
    const body = {
      user_address: {
        ...Object.fromEntries(Object.keys(template).map((field) => [field, ''])),
        address_type: 'home',
        street_address: '21 Hanover St',
        extended_address: 'Apt 1',
        locality: 'Boston',
        region: 'MA',
        postal_code: '02113',
      },
    };
    const created = await createAddress(body);
    expect(created.status).toBe(200);
    const address = created.body.user_address;
    expect(distanceInMeters(at(address), { lat: 42.3656, lng: -71.0546 })).toBeLessThan(1_000);
    const { last } = await deliverTo(address.id);
    expect(last.status).toBe(200);
    expect(last.body.order).toMatchObject({
      state: expect.stringMatching(/valid/),
      conveyance: { fulfillment_type: 'delivery', delivery_address_id: address.id },
    });
  });
});

describe('coordinates a client sends', () => {
  it('are kept as sent, on create and on update', async () => {
    const sent = { ...docsCreate.request_body.user_address, latitude: 40.0001, longitude: -75.0001 };
    const created = await createAddress({ user_address: sent });
    expect(created.body.user_address).toMatchObject({ latitude: 40.0001, longitude: -75.0001 });
    const moved = await api.call('PUT', `/v15/user_addresses/${created.body.user_address.id}`, {
      token: user.token,
      body: { user_address: { postal_code: '10001', latitude: 41.5, longitude: -72.5 } },
    });
    expect(moved.body.user_address).toMatchObject({ postal_code: '10001', latitude: 41.5, longitude: -72.5 });
  });
});

describe('an update', () => {
  it('that moves the address re-geocodes it; one that does not keeps its coordinates', async () => {
    const created = (await createAddress(docsCreate.request_body)).body.user_address;
    const renamed = await api.call('PUT', `/v15/user_addresses/${created.id}`, { token: user.token, body: docsUpdate.request_body });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user_address).toMatchObject({ nickname: 'Mi Casa', street_address: '125 Main Street', latitude: expect.any(Number) });
    expect(distanceInMeters(at(renamed.body.user_address), levelUpPosition)).toBeLessThan(1_000);
    const nicknamed = await api.call('PUT', `/v15/user_addresses/${created.id}`, { token: user.token, body: { user_address: { nickname: 'Home' } } });
    expect(at(nicknamed.body.user_address)).toEqual(at(renamed.body.user_address));
    const moved = await api.call('PUT', `/v15/user_addresses/${created.id}`, {
      token: user.token,
      body: { user_address: { street_address: '20 W 34th St', locality: 'New York', region: 'NY', postal_code: '10001' } },
    });
    expect(moved.status).toBe(200);
    expect(distanceInMeters(at(moved.body.user_address), { lat: 40.7484, lng: -73.9857 })).toBeLessThan(2_000);
  });

  it('to a postal code that cannot be placed clears the coordinates instead of keeping stale ones', async () => {
    const created = (await createAddress(docsCreate.request_body)).body.user_address;
    expect(created.latitude).toEqual(expect.any(Number));
    const moved = await api.call('PUT', `/v15/user_addresses/${created.id}`, { token: user.token, body: { user_address: { postal_code: '00000' } } });
    expect(moved.body.user_address).toMatchObject({ postal_code: '00000', latitude: null, longitude: null });
  });

  it('racing another change of the address never leaves coordinates of another version of it', async () => {
    // Each half of the move alone makes an address the sandbox cannot place (a NY postal code in MA, or
    // the reverse); only the two together place it in New York. Without the guard on the fields read,
    // both writes would store the null of their own half.
    const addresses = await Promise.all(Array.from({ length: 4 }, async () => (await createAddress(docsCreate.request_body)).body.user_address));
    await Promise.all(
      addresses.flatMap((address) =>
        [{ postal_code: '10001' }, { region: 'NY' }].map(async (change) => {
          const response = await api.call('PUT', `/v15/user_addresses/${address.id}`, { token: user.token, body: { user_address: change } });
          expect([200, 409]).toContain(response.status);
          if (response.status === 409) expect(response.headers.get('retry-after')).toBe('1');
        }),
      ),
    );
    const listed = (await api.call('GET', '/v15/user_addresses', { token: user.token })).body.map((entry: any) => entry.user_address);
    for (const address of addresses) {
      const final = listed.find((candidate: any) => candidate.id === address.id);
      const expected = sandboxPosition(final) ?? { latitude: null, longitude: null };
      expect({ latitude: final.latitude, longitude: final.longitude }).toEqual(expected);
    }
  });

  it("of another user's address is still an empty 404", async () => {
    const created = (await createAddress(docsCreate.request_body)).body.user_address;
    const other = await userFixture(fixture.app.app_id);
    const response = await api.call('PUT', `/v15/user_addresses/${created.id}`, { token: other.token, body: { user_address: { postal_code: '10001' } } });
    expect(response.status).toBe(404);
    expect(response.text).toBe('');
  });
});

describe('an address that cannot be geocoded', () => {
  it('keeps null coordinates, and a delivery to it gets the clear 422', async () => {
    for (const [postal_code, region] of [
      ['00000', 'MA'],
      ['02114', 'TX'],
    ]) {
      const created = await createAddress({ user_address: { ...docsCreate.request_body.user_address, postal_code, region } });
      expect(created.status).toBe(200);
      expect(created.body.user_address).toMatchObject({ postal_code, region, latitude: null, longitude: null });
    }
    const unplaced = await createAddress({ user_address: { ...docsCreate.request_body.user_address, postal_code: '00000' } });
    const { last } = await deliverTo(unplaced.body.user_address.id);
    expect(last.status).toBe(422);
    expect(last.body).toEqual([{ error: expect.objectContaining({ object: 'order', property: 'conveyance.delivery_address_id', code: 'not_locatable' }) }]);
  });
});

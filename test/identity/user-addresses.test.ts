import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { callWithBody } from '../support/identity.ts';
import { MAX_ADDRESSES_PER_USER } from '#shared/domain/identity/addresses.ts';

const api = useTestApi();
let appId: number;

beforeAll(async () => {
  appId = (await appFixture()).app.app_id;
});

const ADDRESS_KEYS = ['address_type', 'extended_address', 'id', 'latitude', 'locality', 'longitude', 'nickname', 'postal_code', 'region', 'street_address'];

const docsAddress = {
  address_type: 'home',
  street_address: '101 Arch Street',
  extended_address: 'Suite 555',
  locality: 'Boston',
  region: 'MA',
  postal_code: '02114',
};

describe('user addresses', () => {
  it('creates, lists, updates and deletes an address', async () => {
    const { token } = await userFixture(appId);
    const created = await api.call('POST', '/v15/user_addresses', { authorization: `token user="${token}"`, body: { user_address: docsAddress } });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body.user_address).sort()).toEqual(ADDRESS_KEYS);
    // Sent without coordinates: geocoded (test/geocoding/addresses.test.ts covers how).
    expect(created.body.user_address).toEqual({
      ...docsAddress,
      id: expect.any(Number),
      nickname: '',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
    const id = created.body.user_address.id;

    const second = await api.call('POST', '/v15/user_addresses', {
      token,
      body: { user_address: { street_address: '1 Main St', locality: 'Boston', region: 'MA', postal_code: '02110', latitude: 42.36, longitude: -71.06 } },
    });
    expect(second.status).toBe(200);
    // Defaults: delivery, '' for the optional strings.
    expect(second.body.user_address).toMatchObject({ address_type: 'delivery', extended_address: '', nickname: '', latitude: 42.36, longitude: -71.06 });

    const list = await api.call('GET', '/v15/user_addresses', { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body, second.body]);

    const updated = await api.call('PUT', `/v15/user_addresses/${id}`, {
      token,
      body: { user_address: { nickname: 'Mi Casa', street_address: '125 Main Street' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.user_address).toEqual({ ...created.body.user_address, nickname: 'Mi Casa', street_address: '125 Main Street' });

    const moved = await api.call('PUT', `/v15/user_addresses/${id}`, {
      token,
      body: { user_address: { latitude: 42.3626, longitude: -71.0651, address_type: 'work', extended_address: null } },
    });
    expect(moved.body.user_address).toMatchObject({ latitude: 42.3626, longitude: -71.0651, address_type: 'work', extended_address: '', nickname: 'Mi Casa' });

    // A client sending {} with a JSON content type on DELETE.
    const deleted = await callWithBody(api.baseUrl, 'DELETE', `/v15/user_addresses/${id}`, { Authorization: `token ${token}` }, '{}');
    expect(deleted.status).toBe(200);
    expect(JSON.parse(deleted.text)).toEqual(moved.body);
    expect((await api.call('GET', '/v15/user_addresses', { token })).body).toEqual([second.body]);
    const again = await api.call('DELETE', `/v15/user_addresses/${id}`, { token });
    expect(again.status).toBe(404);
    expect(again.text).toBe('');
  });

  it('lists an empty array for a user without addresses', async () => {
    const { token } = await userFixture(appId);
    const list = await callWithBody(api.baseUrl, 'GET', '/v15/user_addresses', { Authorization: `token ${token}` }, '{}');
    expect(list.status).toBe(200);
    expect(JSON.parse(list.text)).toEqual([]);
  });

  it("answers 404 with an empty body for another user's address and unknown ids", async () => {
    const owner = await userFixture(appId);
    const other = await userFixture(appId);
    const created = await api.call('POST', '/v15/user_addresses', { token: owner.token, body: { user_address: docsAddress } });
    const id = created.body.user_address.id;
    for (const [method, path] of [
      ['PUT', `/v15/user_addresses/${id}`],
      ['DELETE', `/v15/user_addresses/${id}`],
      ['PUT', '/v15/user_addresses/999999'],
      ['PUT', '/v15/user_addresses/abc'],
    ] as const) {
      const response = await api.call(method, path, { token: other.token, body: { user_address: { nickname: 'mine now' } } });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.text).toBe('');
    }
    expect((await api.call('GET', '/v15/user_addresses', { token: other.token })).body).toEqual([]);
    expect((await api.call('GET', '/v15/user_addresses', { token: owner.token })).body).toEqual([created.body]);
  });

  it('validates the address', async () => {
    const { token } = await userFixture(appId);
    const missing = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: {} } });
    expect(missing.status).toBe(422);
    expect(missing.body.map(({ error }: { error: { object: string; property: string } }) => `${error.object}/${error.property}`).sort()).toEqual([
      'user_address/locality',
      'user_address/postal_code',
      'user_address/region',
      'user_address/street_address',
    ]);
    const badType = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: { ...docsAddress, address_type: 'castle' } } });
    expect(badType.status).toBe(422);
    expect(badType.body).toEqual([{ error: { object: 'user_address', property: 'address_type', message: 'Address type is invalid.', code: 'invalid' } }]);
    for (const coordinates of [{ latitude: 91, longitude: 0 }, { latitude: 0, longitude: -181 }, { latitude: 10 }, { latitude: '42', longitude: '-71' }]) {
      const response = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: { ...docsAddress, ...coordinates } } });
      expect(response.status, JSON.stringify(coordinates)).toBe(422);
      expect(response.body[0].error.object).toBe('user_address');
    }
    const created = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: docsAddress } });
    const blank = await api.call('PUT', `/v15/user_addresses/${created.body.user_address.id}`, { token, body: { user_address: { street_address: ' ' } } });
    expect(blank.status).toBe(422);
    expect(blank.body[0].error).toMatchObject({ object: 'user_address', property: 'street_address' });
    expect((await api.call('GET', '/v15/user_addresses', { token })).body).toEqual([created.body]);
  });

  it(`limits a user to ${MAX_ADDRESSES_PER_USER} addresses`, async () => {
    const { token } = await userFixture(appId);
    const createdIds: number[] = [];
    for (let i = 0; i < MAX_ADDRESSES_PER_USER; i++) {
      const created = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: docsAddress } });
      expect(created.status).toBe(200);
      createdIds.push(created.body.user_address.id);
    }
    const overflow = await api.call('POST', '/v15/user_addresses', { token, body: { user_address: docsAddress } });
    expect(overflow.status).toBe(422);
    expect(overflow.body[0].error).toMatchObject({ object: 'user_address', property: 'base', code: 'too_many' });
    const list = await api.call('GET', '/v15/user_addresses', { token });
    expect(list.body).toHaveLength(MAX_ADDRESSES_PER_USER);
    const ids = list.body.map((entry: { user_address: { id: number } }) => entry.user_address.id);
    // Oldest first (address ids come from sharded counters and do not follow creation: docs/scale.md).
    expect(ids).toEqual(createdIds);
    expect((await api.call('DELETE', `/v15/user_addresses/${ids[0]}`, { token })).status).toBe(200);
    expect((await api.call('POST', '/v15/user_addresses', { token, body: { user_address: docsAddress } })).status).toBe(200);
  });

  it('needs manage_user_addresses and a user token', async () => {
    const { token } = await userFixture(appId, { permissions: ['read_user_basic_info'] });
    const response = await api.call('GET', '/v15/user_addresses', { token });
    expect(response.status).toBe(401);
    expect(response.body[0].error).toMatchObject({ object: 'access_token', property: 'permissions' });
    const merchant = await merchantFixture(appId);
    expect((await api.call('GET', '/v15/user_addresses', { token: merchant.token })).status).toBe(401);
  });
});

describe('GET /v15/payment_token', () => {
  it("answers the user's QR code data and id", async () => {
    const { user, token } = await userFixture(appId);
    const response = await api.call('GET', '/v15/payment_token', { token });
    expect(response.status).toBe(200);
    // The app-surface fields (action, message: reference A10) come beside the contract's two.
    expect(response.body).toMatchObject({ payment_token: { data: user.payment_token_data, id: user.payment_token_id } });
    expect(response.body.payment_token.data).toMatch(/^LU02[0-9A-F]{32}LU$/);
  });

  it('works with the merchant and user tokens together (C# and Ruby form)', async () => {
    const { user, token } = await userFixture(appId);
    const merchant = await merchantFixture(appId);
    const response = await api.call('GET', '/v15/payment_token', { authorization: `token merchant="${merchant.token}", user="${token}"` });
    expect(response.status).toBe(200);
    expect(response.body.payment_token.id).toBe(user.payment_token_id);
  });

  it('needs read_qr_code', async () => {
    const { token } = await userFixture(appId, { permissions: ['manage_user_addresses'] });
    const response = await api.call('GET', '/v15/payment_token', { token });
    expect(response.status).toBe(401);
    expect(response.body[0].error).toMatchObject({ object: 'access_token', property: 'permissions' });
  });
});

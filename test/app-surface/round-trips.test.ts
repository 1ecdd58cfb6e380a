import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder } from '../support/money.ts';
import { countRoundTripsInThisFile, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the app-surface routes in the bench (a count from
 * X-DynamoDB-Round-Trips, not a timing): each equals the minimum in bench/scenarios/scenarios.ts and docs/data-model.md.
 */
const api = useTestApi();

countRoundTripsInThisFile();

describe('round trips per request (app surface)', () => {
  it('campaigns at a location: the location + the catalog Query; of a merchant: the catalog Query', async () => {
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id);
    await campaignFixture(merchant.merchant.merchant_id, 'spend');
    const atLocation = await api.call('GET', `/v15/locations/${location.location_id}/campaigns`);
    expect(atLocation.status).toBe(200);
    expect(roundTrips(atLocation)).toBe(2);
    const ofMerchant = await api.call('GET', `/v15/merchants/${merchant.merchant.merchant_id}/campaigns`);
    expect(ofMerchant.status).toBe(200);
    expect(roundTrips(ofMerchant)).toBe(1);
  });

  it("a location's web links: one GetItem of the location", async () => {
    const { app } = await appFixture();
    const merchant = await merchantFixture(app.app_id);
    const location = await locationFixture(merchant.merchant.merchant_id, { facebook_url: 'https://www.facebook.com/shop' });
    const links = await api.call('GET', `/v15/locations/${location.location_id}/web_links`);
    expect(links.status).toBe(200);
    expect(roundTrips(links)).toBe(1);
  });

  it("a push device registration: token + the api_key + the put and the user's devices in one wait", async () => {
    const { app, apiKey } = await appFixture();
    const user = await userFixture(app.app_id);
    const registered = await api.call('POST', '/v15/apn_devices', {
      token: user.token,
      body: { api_key: apiKey, apn_device: { device_identifier: 'phone', sandbox: false, token: 'AB'.repeat(32) } },
    });
    expect(registered.status).toBe(200);
    expect(roundTrips(registered)).toBe(4);
  });

  it('every location by change (A28): one Query that reads a page, not the whole partition, however many locations exist', async () => {
    const { app } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    const created = [];
    for (let index = 0; index < 30; index++) created.push(await locationFixture(merchant.merchant.merchant_id, { name: `Shop ${index}` }));
    const penultimate = created.at(-2)!;
    // Resuming right before the newest location: one row, read as one row (a filtered read of the whole
    // partition would consume capacity for all 30 full locations and every other test's).
    const resumed = await api.call('GET', `/v14/locations?since=${encodeURIComponent(penultimate.updated_at)}&last_id=${penultimate.location_id}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.map((row: { location: { id: number } }) => row.location.id)).toEqual([created.at(-1)!.location_id]);
    expect(roundTrips(resumed)).toBe(1);
    expect(Number(resumed.headers.get('x-dynamodb-capacity-units'))).toBeLessThanOrEqual(0.5);
    const first = await api.call('GET', '/v14/locations');
    expect(first.status).toBe(200);
    expect(roundTrips(first)).toBe(1);
  });

  it("the user's orders (Ruby form): token + one Query once the app is known", async () => {
    const world = await orderWorld();
    await placeOrder(api, world);
    await api.call('GET', '/v15/users/orders', { token: world.user.token });
    const listed = await api.call('GET', '/v15/users/orders', { token: world.user.token });
    expect(listed.status).toBe(200);
    expect(roundTrips(listed)).toBe(2);
  });
});

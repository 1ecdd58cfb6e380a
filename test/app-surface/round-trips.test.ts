import '../money/round-trips.env.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder } from '../support/money.ts';

/**
 * DynamoDB round trips per request of the app-surface routes in the bench (a count from
 * X-DynamoDB-Round-Trips, not a timing): each equals the minimum in bench/scenarios.ts and docs/data-model.md.
 */
const api = useTestApi();
const roundTrips = (response: ApiResult) => Number(response.headers.get('x-dynamodb-round-trips'));

afterAll(() => {
  delete process.env.DYNAMODB_STATS;
});

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

  it("the user's orders (Ruby form): token + one Query once the app is known", async () => {
    const world = await orderWorld();
    await placeOrder(api, world);
    await api.call('GET', '/v15/users/orders', { token: world.user.token });
    const listed = await api.call('GET', '/v15/users/orders', { token: world.user.token });
    expect(listed.status).toBe(200);
    expect(roundTrips(listed)).toBe(2);
  });
});

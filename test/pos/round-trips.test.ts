import '../money/round-trips.env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { countRoundTripsInThisFile, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the POS routes (X-DynamoDB-Round-Trips, a count, not a timing): each
 * equals the minimum docs/data-model.md states ("Point of sale views", "Remote checks") and, for the money
 * route, bench/scenarios/scenarios.ts.
 */
const api = useTestApi();
let world: OrderWorld;

beforeAll(async () => {
  world = await orderWorld({ card: 'valid', credit: 100 });
  // A loyalty campaign at the merchant, so finalisation carries loyalty's reads and writes.
  await campaignFixture(world.merchant.merchant.merchant_id, 'spend');
});

countRoundTripsInThisFile();

describe('round trips per request (POS)', () => {
  it("remote check: publish 3, update 2, poll 3 once claimed, finalise 7 (the completed order's saga)", async () => {
    const published = await api.call('PUT', '/v15/checks', {
      token: world.merchant.token,
      body: { check: { location_id: world.location.location_id, spend_amount: 1500, tax_amount: 0, items: null } },
    });
    expect(published.status).toBe(200);
    expect(roundTrips(published)).toBe(3);
    const uuid = published.body.check.uuid;
    const updated = await api.call('PUT', `/v15/checks/${uuid}`, {
      token: world.merchant.token,
      body: { check: { location_id: world.location.location_id, spend_amount: 2000, tax_amount: 0, items: null } },
    });
    expect(roundTrips(updated)).toBe(2);
    expect((await api.call('POST', `/v15/checks/${uuid}/orders`, { token: world.user.token, body: {} })).status).toBe(200);
    const polled = await api.call('GET', `/v15/checks/${uuid}`, { token: world.merchant.token });
    expect(polled.body.check.pending_order.discount_amount).toBe(100);
    expect(roundTrips(polled)).toBe(3);
    const finalised = await api.call('POST', `/v15/checks/${uuid}/orders`, {
      token: world.merchant.token,
      body: { order: { applied_discount_amount: 100, tax_amount: 0, spend_amount: 2000 } },
    });
    expect(finalised.status, finalised.text).toBe(200);
    // token + (check, merchant) + the customer's settlement lease + the settlement lease + (balances, user, card)
    // + the merchant's campaigns + the user's loyalty + one transaction: the completed order's count
    // + the order's integer id, drawn beside the reads (a sharded counter; issue 34.11)
    expect(roundTrips(finalised)).toBe(9);
  });

  it("merchant views: the merchant's order 2, a location's orders 3, location details 1", async () => {
    const placed = await placeOrder(api, world);
    expect(placed.status).toBe(200);
    const order = await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/orders/${placed.body.order.uuid}`, {
      token: world.merchant.token,
    });
    expect(roundTrips(order)).toBe(2);
    const list = await api.call('GET', `/v14/locations/${world.location.location_id}/orders`, { token: world.merchant.token });
    expect(roundTrips(list)).toBe(3);
    const location = await api.call('GET', `/v15/locations/${world.location.location_id}`);
    expect(roundTrips(location)).toBe(1);
    const managed = await api.call('GET', '/v15/managed_locations', { token: world.merchant.token });
    expect(roundTrips(managed)).toBe(2);
  });
});

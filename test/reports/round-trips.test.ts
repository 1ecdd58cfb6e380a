import '../money/round-trips.env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { staffToken } from '../support/staff.ts';
import { locationFixture } from '../support/locations.ts';
import { countRoundTripsInThisFile, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the reports and exports (X-DynamoDB-Round-Trips, a count, not a timing): each
 * equals the minimum docs/data-model.md ("Reports") and bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
let world: OrderWorld;
let owner: string;

beforeAll(async () => {
  world = await orderWorld();
  expect((await placeOrder(api, world)).status).toBe(200);
  owner = await staffToken(world.app.app_id, world.merchant.merchant.merchant_id, 'owner');
});

countRoundTripsInThisFile();

describe('round trips per request (reports and exports)', () => {
  it('daily report 3, orders export 3 (one location), ledger export 2 (one month)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const base = `/v15/merchants/${world.merchant.merchant.merchant_id}`;
    const range = `from=${today}&to=${today}`;
    const report = await api.call('GET', `${base}/reports/daily?${range}`, { token: owner });
    expect(report.status).toBe(200);
    // token + the range's day rows + the months before it (in parallel)
    expect(roundTrips(report)).toBe(3);
    const orders = await api.call('GET', `${base}/exports/orders.csv?${range}`, { token: owner });
    expect(orders.status).toBe(200);
    // token + the merchant's locations + the one location's orders in the range
    expect(roundTrips(orders)).toBe(3);
    const ledger = await api.call('GET', `${base}/exports/ledger.csv?${range}`, { token: owner });
    expect(ledger.status).toBe(200);
    // token + the month's ledger index partition
    expect(roundTrips(ledger)).toBe(2);
  });

  it("orders export: one Query per location, however many are empty (the bench's exports merchant has 11: 13)", async () => {
    const merchantId = world.merchant.merchant.merchant_id;
    for (let added = 0; added < 2; added++) await locationFixture(merchantId);
    const today = new Date().toISOString().slice(0, 10);
    const orders = await api.call('GET', `/v15/merchants/${merchantId}/exports/orders.csv?from=${today}&to=${today}`, { token: owner });
    expect(orders.status).toBe(200);
    // token + the merchant's locations + each of its 3 locations' orders in the range
    expect(roundTrips(orders)).toBe(5);
  });
});

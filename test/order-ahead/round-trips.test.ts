import '../money/round-trips.env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollLikeIos, startOrderAheadTestApi, startPickup } from '../support/order-ahead.ts';
import { stepHandler } from '../../functions/order-ahead-validate.ts';
import { countRoundTripsInThisFile, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the order-ahead endpoints (a count from X-DynamoDB-Round-Trips, not
 * a timing): each equals the minimum documented in docs/data-model.md ("Order ahead", per request) and
 * bench/scenarios/scenarios.ts. The workflows' own calls run outside the request and are not counted.
 */
/** Holds the Validate step until released, so a test can poll an order that is validating. */
let gate: Promise<void> = Promise.resolve();
const api = useTestApi(() => startOrderAheadTestApi({ taskHandlers: { Validate: async (input) => (await gate, stepHandler(input)) } }));
let place: Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let user: Awaited<ReturnType<typeof orderAheadUserFixture>>;

beforeAll(async () => {
  place = await orderAheadLocationFixture();
  user = await orderAheadUserFixture(place.app.app_id);
  await cardFixture(user.user.user_id);
});

countRoundTripsInThisFile();

async function validOrder() {
  const started = await startPickup(api, user.token, place.location.location_id);
  return pollLikeIos(api, started.body.order.order_url, user.token);
}

describe('round trips per request (order ahead)', () => {
  it('menu by id: one index Query, no token', async () => {
    const response = await api.call('GET', `/v15/order_ahead/menus/${place.menu.menu_id}`);
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(1);
  });

  it('validation poll: token + the order; an early repeat while validating: the token alone', async () => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const started = await startPickup(api, user.token, place.location.location_id);
    const first = await api.call('GET', started.body.order.order_url, { token: user.token });
    expect(first.status).toBe(202);
    expect(roundTrips(first)).toBe(2);
    const early = await api.call('GET', started.body.order.order_url, { token: user.token });
    expect(early.status).toBe(202);
    expect(roundTrips(early)).toBe(1);
    release();
    const { last } = await pollLikeIos(api, started.body.order.order_url, user.token);
    expect(last.status).toBe(200);
    expect(roundTrips(last)).toBe(2);
  });

  it('completion: token + the conditional transition (no read first); the completion poll: token + the order', async () => {
    const { last } = await validOrder();
    const submitted = await api.call('POST', last.body.order.order_completion_url, { token: user.token });
    expect(submitted.status).toBe(202);
    expect(roundTrips(submitted)).toBe(2);
    const { answers } = await pollLikeIos(api, submitted.body.order.order_url, user.token);
    for (const answer of answers) expect(roundTrips(answer)).toBe(2);
    // A repeat's transition does not hold: the order as it stood comes back with the failure, no second read.
    const again = await api.call('POST', last.body.order.order_completion_url, { token: user.token });
    expect(roundTrips(again)).toBe(2);
  });

  it('suggested orders: token + the carts + their locations and menus (the app is kept in memory)', async () => {
    const warm = await api.call('GET', '/v15/order_ahead/orders/suggested', { token: user.token });
    expect(warm.body.length).toBeGreaterThan(0);
    const response = await api.call('GET', `/v15/order_ahead/orders/suggested?location_id=${place.location.location_id}`, { token: user.token });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(3);
  });

  it('delivery location: token + the address + the locations that deliver + their menus', async () => {
    const response = await api.call('GET', `/v15/user_addresses/${user.address.address_id}/delivery_location`, { token: user.token });
    expect(response.status, response.text).toBe(200);
    expect(roundTrips(response)).toBe(4);
  });
});

import './round-trips.env.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';

/**
 * DynamoDB round trips of the payment token endpoints (a count from X-DynamoDB-Round-Trips, not a timing):
 * each equals the minimum documented in docs/data-model.md ("Access patterns per request") and bench/scenarios.ts.
 */
const api = useTestApi();
let user: Awaited<ReturnType<typeof userFixture>>;

const roundTrips = (response: { headers: Headers }) => Number(response.headers.get('x-dynamodb-round-trips'));

beforeAll(async () => {
  const { app } = await appFixture();
  user = await userFixture(app.app_id);
});

afterAll(() => {
  delete process.env.DYNAMODB_STATS;
});

describe('round trips per request', () => {
  it('showing the QR code: token + the user item', async () => {
    const response = await api.call('GET', '/v15/payment_token', { token: user.token });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(2);
  });

  it('rotating it: token + (user item, id counter) + one transaction', async () => {
    const response = await api.call('POST', '/v15/payment_token/rotations', { token: user.token });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(4);
  });
});

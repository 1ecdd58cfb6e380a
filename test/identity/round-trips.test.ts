import './round-trips.env.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { countRoundTripsInThisFile, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips of the payment token and user endpoints (a count from X-DynamoDB-Round-Trips, not a timing):
 * each equals the minimum documented in docs/data-model.md ("Access patterns per request") and bench/scenarios/scenarios.ts.
 */
const api = useTestApi();
let user: Awaited<ReturnType<typeof userFixture>>;

beforeAll(async () => {
  const { app } = await appFixture();
  user = await userFixture(app.app_id);
});

countRoundTripsInThisFile();

describe('round trips per request', () => {
  it('showing the QR code: token + the user item (no card to read: the user has none)', async () => {
    const response = await api.call('GET', '/v15/payment_token', { token: user.token });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(2);
  });

  it('showing the QR code of a user with a card: + the promoted card (can the user pay?): 3; the QR string with preferences: 2', async () => {
    const { cardFixture } = await import('../support/cards.ts');
    const { app } = await appFixture();
    const payer = await userFixture(app.app_id);
    await cardFixture(payer.user.user_id);
    for (const path of ['/v15/payment_token', '/v14/payment_token']) {
      const response = await api.call('GET', path, { token: payer.token });
      expect(response.status).toBe(200);
      expect(roundTrips(response)).toBe(3);
    }
    const qr = await api.call('GET', '/v15/qr_codes?preferences[color]=0&preferences[tip_percent]=10', { token: payer.token });
    expect(qr.status).toBe(200);
    expect(roundTrips(qr)).toBe(2);
  });

  it('showing the user: token + one Query of the profile and its totals (orders, merchants visited, savings): 2; an update: + one transaction', async () => {
    for (const path of ['/v15/users', `/v14/users/${user.user.user_id}`]) {
      const response = await api.call('GET', path, { token: user.token });
      expect(response.status).toBe(200);
      expect(roundTrips(response)).toBe(2);
    }
    const updated = await api.call('PUT', '/v15/users', { token: user.token, body: { user: { first_name: 'Grace' } } });
    expect(updated.status).toBe(200);
    expect(roundTrips(updated)).toBe(3);
  });

  it('rotating it: token + (user item, id counter) + one transaction', async () => {
    const response = await api.call('POST', '/v15/payment_token/rotations', { token: user.token });
    expect(response.status).toBe(200);
    expect(roundTrips(response)).toBe(4);
  });
});

import '../money/round-trips.env.ts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addCredit } from '#shared/domain/money/ledger.ts';
import { useTestApi } from '../support/api.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the customer routes (X-DynamoDB-Round-Trips, a count, not a timing): each
 * equals the minimum docs/merchant-api.md ("Customers") and bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
countRoundTripsInThisFile();

describe('round trips per request (customers, management API)', () => {
  it('lookup 7, show 4, grant 7, unlock 7', async () => {
    const { world, merchantId, owner } = await ownedMerchant();
    const userId = world.user.user.user_id;
    await addCredit({ userId, merchantId, amount: 100, entryId: `test:${randomUUID()}` });
    const locked = await campaignFixture(merchantId, 'spend', { locked: true });
    const base = `/v15/merchants/${merchantId}`;
    const found = await api.call('POST', `${base}/customer_lookups`, { token: owner, body: { customer_lookup: { email: world.user.email } } });
    expect(found.status, found.text).toBe(200);
    expect(roundTrips(found)).toBe(7);
    const shown = await api.call('GET', `${base}/customers/${userId}`, { token: owner });
    expect(shown.status, shown.text).toBe(200);
    expect(roundTrips(shown)).toBe(4);
    const keyed = { 'Idempotency-Key': randomUUID() };
    const granted = await api.call('POST', `${base}/customers/${userId}/credit_grants`, {
      token: owner,
      body: { credit_grant: { value_amount: 100 } },
      headers: keyed,
    });
    expect(granted.status, granted.text).toBe(200);
    expect(roundTrips(granted)).toBe(7);
    const unlocked = await api.call('POST', `${base}/customers/${userId}/campaign_unlockings`, {
      token: owner,
      body: { campaign_unlocking: { campaign_id: locked.campaign_id } },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(roundTrips(unlocked)).toBe(7);
  });
});

import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the campaign management routes (X-DynamoDB-Round-Trips, a count, not a
 * timing): each equals the minimum docs/data-model.md ("Campaigns through the management API") and
 * bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
countRoundTripsInThisFile();

describe('round trips per request (campaigns, management API)', () => {
  it('create 3, list 2, show 2, edit 3, close 3', async () => {
    const { merchantId, owner } = await ownedMerchant();
    const path = `/v15/merchants/${merchantId}/campaigns`;
    const created = await api.call('POST', path, {
      token: owner,
      body: { campaign: { kind: 'spend', title: 'Spend $50, get $5', required_spend_amount: 5000, earn_amount: 500 } },
    });
    expect(created.status, created.text).toBe(200);
    expect(roundTrips(created)).toBe(3);
    const campaignPath = `${path}/${created.body.campaign.id}`;
    const listed = await api.call('GET', `/v15/merchants/${merchantId}/all_campaigns`, { token: owner });
    expect(listed.status, listed.text).toBe(200);
    expect(roundTrips(listed)).toBe(2);
    const shown = await api.call('GET', campaignPath, { token: owner });
    expect(shown.status, shown.text).toBe(200);
    expect(roundTrips(shown)).toBe(2);
    const edited = await api.call('PUT', campaignPath, { token: owner, body: { campaign: { title: 'Renamed' } } });
    expect(edited.status, edited.text).toBe(200);
    expect(roundTrips(edited)).toBe(3);
    const closed = await api.call('POST', `${campaignPath}/close`, { token: owner });
    expect(closed.status, closed.text).toBe(200);
    expect(roundTrips(closed)).toBe(3);
  });
});

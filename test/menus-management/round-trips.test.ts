import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { locationFixture } from '../support/locations.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the management API's menu draft routes (X-DynamoDB-Round-Trips, a count, not a
 * timing): each equals the minimum docs/data-model.md ("Menu drafts") and bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
countRoundTripsInThisFile();

const MENU = {
  categories: [{ id: 1, name: 'Coffee', items: [{ id: 101, name: 'Latte', price_amount: 450 }] }],
  upsells: [{ id: 1, prompt: 'Another?', item_ids: [101] }],
};

describe('round trips per request (menu drafts, management API)', () => {
  it('show 4 (token, location, draft and menu side by side), save 5 (+ one transaction), first publish 6 (+ the menu id), discard 5', async () => {
    const { merchantId, owner } = await ownedMerchant();
    const location = await locationFixture(merchantId);
    const path = `/v15/merchants/${merchantId}/locations/${location.location_id}/menu_draft`;
    const shown = await api.call('GET', path, { token: owner });
    expect(shown.status, shown.text).toBe(200);
    expect(roundTrips(shown)).toBe(4);
    const saved = await api.call('PUT', path, { token: owner, body: { menu_draft: { version: 0, menu: MENU } } });
    expect(saved.status, saved.text).toBe(200);
    expect(roundTrips(saved)).toBe(5);
    const published = await api.call('POST', `${path}/publish`, { token: owner, body: { menu_draft: { version: 1 } } });
    expect(published.status, published.text).toBe(200);
    expect(roundTrips(published)).toBe(6);
    await api.call('PUT', path, { token: owner, body: { menu_draft: { version: 2, menu: MENU } } });
    const discarded = await api.call('POST', `${path}/discard`, { token: owner, body: { menu_draft: { version: 3 } } });
    expect(discarded.status, discarded.text).toBe(200);
    expect(roundTrips(discarded)).toBe(5);
  });
});

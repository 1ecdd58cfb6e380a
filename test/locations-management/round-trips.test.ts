import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { LOCATION_PLACE, locationFixture } from '../support/locations.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the management API's location routes (and their image uploads) (X-DynamoDB-Round-Trips, a count, not a
 * timing): each equals the minimum docs/data-model.md ("Locations as their merchant sets them") and
 * bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
countRoundTripsInThisFile();

describe('round trips per request (locations, management API)', () => {
  it('list 2, show 2, create 4 (token, merchant and id side by side, one transaction), update 3 (token, location, one transaction)', async () => {
    const { merchantId, owner } = await ownedMerchant();
    const location = await locationFixture(merchantId);
    const listed = await api.call('GET', `/v15/merchants/${merchantId}/all_locations`, { token: owner });
    expect(listed.status, listed.text).toBe(200);
    expect(roundTrips(listed)).toBe(2);
    const shown = await api.call('GET', `/v15/merchants/${merchantId}/locations/${location.location_id}`, { token: owner });
    expect(shown.status, shown.text).toBe(200);
    expect(roundTrips(shown)).toBe(2);
    const created = await api.call('POST', `/v15/merchants/${merchantId}/locations`, {
      token: owner,
      body: {
        location: { ...LOCATION_PLACE, street_address: '20 Seaport Blvd', postal_code: '02210', longitude: -71.04 },
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(roundTrips(created)).toBe(4);
    const updated = await api.call('PUT', `/v15/merchants/${merchantId}/locations/${location.location_id}`, {
      token: owner,
      body: { location: { ready_time_estimate_in_minutes: 25 } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(roundTrips(updated)).toBe(3);
  });

  it('image uploads: create 3 (token, location, one transaction; the POST is signed in the function), show 2 (token, upload)', async () => {
    const { merchantId, owner } = await ownedMerchant();
    const location = await locationFixture(merchantId);
    const path = `/v15/merchants/${merchantId}/locations/${location.location_id}/image_uploads`;
    const created = await api.call('POST', path, { token: owner, body: { image_upload: { content_type: 'image/png' } } });
    expect(created.status, created.text).toBe(201);
    expect(roundTrips(created)).toBe(3);
    const shown = await api.call('GET', `${path}/${created.body.image_upload.id}`, { token: owner });
    expect(shown.status, shown.text).toBe(200);
    expect(roundTrips(shown)).toBe(2);
  });
});

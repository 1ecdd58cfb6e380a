import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { locationFixture } from '../support/locations.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';

/**
 * DynamoDB round trips per request of the location image upload routes (X-DynamoDB-Round-Trips, a count, not a
 * timing): each equals the minimum bench/scenarios/scenarios.ts states.
 */
const api = useTestApi();
countRoundTripsInThisFile();

describe('round trips per request (location image uploads)', () => {
  it('create 3 (token, location, one transaction; the POST is signed in the function), show 2 (token, upload)', async () => {
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

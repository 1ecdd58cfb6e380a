import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';
import { staffToken } from '../support/staff.ts';

/**
 * DynamoDB round trips per request of the audit log and manager code routes (X-DynamoDB-Round-Trips, a count, not a
 * timing): each equals the minimum docs/data-model.md ("Audit log and manager codes") and bench/scenarios/scenarios.ts state.
 */
const api = useTestApi();
countRoundTripsInThisFile();

describe('round trips per request (audit log, manager codes)', () => {
  it('list 2, export 2, setting a code 3 (token, one BatchGetItem, one transaction)', async () => {
    const { world, merchantId, owner } = await ownedMerchant();
    const manager = await staffToken(world.app.app_id, merchantId, 'manager');
    const set = await api.call('PUT', `/v15/merchants/${merchantId}/staff/me/manager_code`, { token: manager, body: { manager_code: { code: '48151623' } } });
    expect(set.status, set.text).toBe(204);
    expect(roundTrips(set)).toBe(3);
    const replaced = await api.call('PUT', `/v15/merchants/${merchantId}/staff/me/manager_code`, {
      token: manager,
      body: { manager_code: { code: '42424242' } },
    });
    expect(replaced.status).toBe(204);
    expect(roundTrips(replaced)).toBe(3);
    const listed = await api.call('GET', `/v15/merchants/${merchantId}/audit_log`, { token: owner });
    expect(listed.status, listed.text).toBe(200);
    expect(roundTrips(listed)).toBe(2);
    const exported = await api.call('GET', `/v15/merchants/${merchantId}/audit_log.csv?from=2026-11-01&to=2027-01-01`, { token: owner });
    expect(exported.status, exported.text).toBe(200);
    expect(roundTrips(exported)).toBe(2);
  });
});

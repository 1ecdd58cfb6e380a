import '../money/round-trips.env.ts';
import { describe, expect, it } from 'vitest';
import { inviteStaff } from '#shared/domain/staff/members.ts';
import { useTestApi } from '../support/api.ts';
import { countRoundTripsInThisFile, ownedMerchant, roundTrips } from '../support/round-trips.ts';
import { staffEmail, staffFixture } from '../support/staff.ts';

/**
 * DynamoDB round trips of a staff removal (X-DynamoDB-Round-Trips, a count, not a timing): the minimum
 * bench/scenarios/scenarios.ts states for `staff-delete`.
 */
const api = useTestApi();
countRoundTripsInThisFile();

const staffPath = (merchantId: number, staffId: number) => `/v15/merchants/${merchantId}/staff/${staffId}`;
const codePath = (merchantId: number) => `/v15/merchants/${merchantId}/staff/me/manager_code`;

describe('round trips per request (staff removal)', () => {
  it('4: token, the member and their code pointer in one BatchGetItem, one transaction, the Query of their tokens', async () => {
    const { merchantId, owner } = await ownedMerchant();
    // Invited only: no token of theirs to revoke, as in the bench.
    const member = await inviteStaff({ merchantId, actor: null, invite: { email: staffEmail(), name: 'Invited', role: 'staff' }, baseUrl: 'http://127.0.0.1' });
    const removed = await api.call('DELETE', staffPath(merchantId, member.staff_id), { token: owner });
    expect(removed.status, removed.text).toBe(204);
    expect(roundTrips(removed)).toBe(4);
    expect((await api.call('DELETE', staffPath(merchantId, member.staff_id), { token: owner })).status).toBe(404);
  });

  it("a code holder's removal reads their code with them and takes it away in its transaction", async () => {
    const { world, merchantId, owner } = await ownedMerchant();
    const holder = await staffFixture(world.app.app_id, merchantId, 'manager');
    const set = await api.call('PUT', codePath(merchantId), { token: holder.token, body: { manager_code: { code: '31415926' } } });
    expect(set.status, set.text).toBe(204);
    const removed = await api.call('DELETE', staffPath(merchantId, holder.staffId), { token: owner });
    expect(removed.status, removed.text).toBe(204);
    // One more than the minimum: the delete of the token they held.
    expect(roundTrips(removed)).toBe(5);
    // The code is free again: while its item stood, another member setting it was refused (422 taken).
    const next = await staffFixture(world.app.app_id, merchantId, 'manager');
    const reused = await api.call('PUT', codePath(merchantId), { token: next.token, body: { manager_code: { code: '31415926' } } });
    expect(reused.status, reused.text).toBe(204);
  });
});

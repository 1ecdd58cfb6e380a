/**
 * I13-I14 of the SDK reference through HTTP: Android's Facebook link and unlink, with its own bodies, answer a
 * documented 410 Gone in the contract's error format (Facebook's old login API no longer exists), change
 * nothing, and are told apart from an unknown route (404).
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload } from '../support/payloads.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { snapshotTable, tableChanges } from '../support/fuzz.ts';

const api = useTestApi();
const bodies = clientPayload('android_v15_users__create_with_permissions.json').related_v14_bodies;

describe('I13-I14 /v14/facebook_connection', () => {
  it('answers 410 with code gone to the Android link and unlink, with or without the user token, and changes nothing', async () => {
    const { app } = await appFixture();
    const user = await userFixture(app.app_id);
    const link = { ...bodies['POST /v14/facebook_connection (user token)'], user: { facebook_access_token: 'EAAB-facebook-token' } };
    expect(bodies['DELETE /v14/facebook_connection (user token)']).toBeNull();
    const before = await snapshotTable();
    for (const token of [user.token, undefined]) {
      for (const [method, body] of [
        ['POST', link],
        ['DELETE', undefined],
      ] as const) {
        const response = await api.call(method, '/v14/facebook_connection', {
          token,
          body,
          headers: { 'X-LevelUp-API-Key': 'android-api-key', 'User-Agent': 'Example/1.0 LevelUpSdk/2.1.3' },
        });
        expect(response.status, `${method} with${token ? '' : 'out'} a token`).toBe(410);
        expect(response.body).toEqual([
          {
            error: {
              object: 'user',
              property: 'facebook_access_token',
              message: expect.stringContaining('Facebook login is no longer available'),
              code: 'gone',
            },
          },
        ]);
        expect(response.headers.get('server')).toBe('LevelUp');
      }
    }
    expect(tableChanges(before, await snapshotTable())).toEqual([]);
    // Another method on the same path is still the route table's 405, not a 410.
    const put = await api.call('PUT', '/v14/facebook_connection', { body: link });
    expect(put.status).toBe(405);
  });
});

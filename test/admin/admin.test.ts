import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { runAdmin, type CliResult } from '../support/admin.ts';
import { appIdForApiKey } from '#shared/domain/identity/apps.ts';

const api = useTestApi();

/** Against this file's test table unless `env` names another (or none). */
const admin = (args: string[], env?: Record<string, string | undefined>) => runAdmin(args, env ?? api);

/** create-location's address options: a Boston street address and its coordinates. */
const BOSTON_ADDRESS = [
  '--street-address',
  '1 Main St',
  '--locality',
  'Boston',
  '--region',
  'MA',
  '--postal-code',
  '02110',
  '--lat',
  '42.36',
  '--lng',
  '-71.06',
];

function json(result: CliResult): any {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('npm run admin', () => {
  it('lists its commands with --help and exits 0', async () => {
    const result = await admin(['--help'], {});
    expect(result.code).toBe(0);
    for (const command of ['create-app', 'create-merchant', 'create-location', 'create-user', 'create-token']) expect(result.stdout).toContain(command);
  });

  it('creates a merchant, a location, and an app listing that merchant; the API key and the listing work', async () => {
    const { merchant } = json(
      await admin([
        'create-merchant',
        '--name',
        'CLI Coffee',
        '--username',
        `cli-${Date.now()}`,
        '--password',
        'cli password',
        '--manager-confirmation',
        '1234',
      ]),
    );
    expect(merchant).toMatchObject({ name: 'CLI Coffee', manager_confirmation: '1234' });
    const { location } = json(
      await admin([
        'create-location',
        '--merchant-id',
        String(merchant.merchant_id),
        ...BOSTON_ADDRESS,
        '--time-zone',
        'America/New_York',
        '--fulfillment-types',
        'in_store,delivery',
        '--delivery-radius-m',
        '3000',
        '--hours',
        'mon-fri 07:00-19:00',
      ]),
    );
    const created = json(await admin(['create-app', '--name', 'CLI App', '--merchant-ids', String(merchant.merchant_id)]));
    expect(created.app).toMatchObject({ name: 'CLI App', global: false, merchant_ids: [merchant.merchant_id] });
    expect(created.api_key).toEqual(expect.any(String));
    expect(await appIdForApiKey(created.api_key)).toBe(created.app.app_id);
    // The client secret (shown once) gets an app token.
    const appGrant = await api.call('POST', '/v15/access_tokens', { body: { api_key: created.api_key, client_secret: created.client_secret } });
    expect(appGrant.status, appGrant.text).toBe(200);
    expect(appGrant.body.access_token.app_id).toBe(created.app.app_id);

    const listed = await api.call('GET', `/v15/apps/${created.app.app_id}/locations?fulfillment_types=delivery`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { location: expect.objectContaining({ id: location.location_id, merchant_name: 'CLI Coffee', hours: 'Mon - Fri 7am - 7pm' }) },
    ]);
  });

  it("rotates an app's client secret: the new one works, the old one and the app's tokens stop", async () => {
    const created = json(await admin(['create-app', '--name', 'Rotating App', '--global']));
    const grant = (secret: string) => api.call('POST', '/v15/access_tokens', { body: { api_key: created.api_key, client_secret: secret } });
    const oldToken = (await grant(created.client_secret)).body.access_token.token;
    const rotated = json(await admin(['rotate-app-secret', '--api-key', created.api_key]));
    expect(rotated).toEqual({ app_id: created.app.app_id, client_secret: expect.any(String) });
    expect((await grant(created.client_secret)).status).toBe(422);
    expect((await grant(rotated.client_secret)).status).toBe(200);
    expect((await api.call('DELETE', '/v15/access_tokens', { token: oldToken })).status).toBe(401);
    expect((await admin(['rotate-app-secret', '--api-key', 'no-such-key'])).code).toBe(1);
  });

  it('issues user and merchant tokens that the API accepts', async () => {
    const { app } = json(await admin(['create-app', '--name', 'Token App', '--global']));
    const { user } = json(
      await admin(['create-user', '--app-id', String(app.app_id), '--email', `cli-${Date.now()}@example.com`, '--password', 'cli user password']),
    );
    const issued = json(await admin(['create-token', '--user-id', String(user.id), '--permissions', 'read_user_basic_info']));
    expect(issued).toMatchObject({ subject: 'user', user_id: user.id, app_id: app.app_id, permissions: ['read_user_basic_info'] });
    const shown = await api.call('GET', '/v15/users', { token: issued.token });
    expect(shown.status).toBe(200);
    expect(shown.body.user).toMatchObject({ id: user.id, email: user.email });

    const { merchant } = json(
      await admin(['create-merchant', '--name', 'Token Merchant', '--username', `cli-token-${Date.now()}`, '--password', 'pw pw pw pw']),
    );
    const merchantToken = json(await admin(['create-token', '--merchant-id', String(merchant.merchant_id), '--app-id', String(app.app_id)]));
    expect(merchantToken).toMatchObject({ subject: 'merchant', merchant_id: merchant.merchant_id, app_id: app.app_id });
    // A merchant token is not a user token: the user route refuses it with 401, not as an unknown token.
    const refused = await api.call('GET', '/v15/users', { token: merchantToken.token });
    expect(refused.status).toBe(401);
    expect(refused.body[0].error.message).not.toBe('The access token is invalid.');
  });

  it.each([
    [['create-app'], /--name is required/],
    [['create-app', '--name', 'X', '--global', '--merchant-ids', '1'], /not --global/],
    [['create-app', '--name', 'X', '--callback-url', 'http://example.com/hook'], /must be an https URL/],
    [['create-token', '--user-id', '1', '--merchant-id', '1'], /exactly one of/],
    [['create-token', '--merchant-id', 'one', '--app-id', '1'], /whole number/],
    [['create-location', '--merchant-id', '1', '--fulfillment-types', 'drive_thru'], /fulfillment-types/],
    [['create-app', '--name', 'X', '--colour', 'blue'], /Unknown option/],
    [['no-such-command'], /Unknown command/],
  ])('exits 2 with a usage error for %j', async (args, message) => {
    const result = await admin(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 2 and explains how to choose a table when none is given', async () => {
    const result = await admin(['create-app', '--name', 'X'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--local/);
    expect(result.stderr).toMatch(/TABLE_NAME/);
  });

  it('exits 1 when the operation fails', async () => {
    const missingMerchant = await admin(['create-app', '--name', 'X', '--merchant-ids', '999999']);
    expect(missingMerchant.code).toBe(1);
    expect(missingMerchant.stderr).toMatch(/Merchant 999999 does not exist/);
    const badTimeZone = await admin(['create-location', '--merchant-id', '999999', ...BOSTON_ADDRESS, '--time-zone', 'Mars/Olympus']);
    expect(badTimeZone.code).toBe(1);
    expect(badTimeZone.stderr).toMatch(/time_zone/);
  });
});

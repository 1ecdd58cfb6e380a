import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture, useAppFixture } from '../support/fixtures.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { clientPayload } from '../support/client-payloads.ts';

const api = useTestApi();
const app = useAppFixture();

async function signUp(email: string, password = 'first password') {
  const response = await api.call('POST', '/v14/users', {
    body: { api_key: app.apiKey, user: { email, first_name: 'Ada', last_name: 'Lovelace', password } },
  });
  expect(response.status).toBe(200);
  return response.body.user as { id: number };
}

function logIn(username: string, password: string, key = app.apiKey) {
  return api.call('POST', '/v15/access_tokens', {
    body: { access_token: { api_key: key, username, password, device_identifier: 'device-1' } },
  });
}

describe('POST /v15/access_tokens', () => {
  it('logs a user created through POST /v14/users in with an unlimited token', async () => {
    const user = await signUp('login-user@example.com');
    const response = await logIn('Login-User@Example.com', 'first password');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: { token: expect.stringMatching(/^[0-9a-f]{64}$/), app_id: app.appId, user_id: user.id, merchant_id: null } });

    const token = response.body.access_token.token;
    const me = await api.call('GET', '/v15/users', { token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: user.id, app_id: app.appId });
    // Unlimited: may change the account itself.
    const update = await api.call('PUT', '/v15/users', { token, body: { user: { first_name: 'Augusta' } } });
    expect(update.status).toBe(200);
  });

  it('logs a merchant in with a merchant token, its user_id the id of the person who logged in (the C# SDK reads an int)', async () => {
    const { merchant, username, password } = await merchantFixture(app.appId);
    const response = await logIn(username, password);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: { token: expect.any(String), app_id: app.appId, user_id: expect.any(Number), merchant_id: merchant.merchant_id },
    });
    const personId = response.body.access_token.user_id as number;
    expect(Number.isInteger(personId) && personId > 0 && personId < 2 ** 31).toBe(true);
    // The C# POS SDK's own body on v15, and the same login on v14: the same person each time.
    const sdkBody = clientPayload('csharp_v15_access_tokens__create.json').request_body;
    for (const path of ['/v15/access_tokens', '/v14/access_tokens']) {
      const again = await api.call('POST', path, { body: { access_token: { ...sdkBody.access_token, api_key: app.apiKey, username, password } } });
      expect(again.status).toBe(200);
      expect(again.body.access_token).toMatchObject({ user_id: personId, merchant_id: merchant.merchant_id });
    }
    // A merchant token is not a user token.
    const me = await api.call('GET', '/v15/users', { token: response.body.access_token.token });
    expect(me.status).toBe(401);
  });

  it('gives a merchant login stored without a person id one on its first login, the same to concurrent logins', async () => {
    const { merchant, username, password } = await merchantFixture(app.appId);
    await db().send(new UpdateCommand({ TableName: table(), Key: keys.login(username), UpdateExpression: 'REMOVE user_id' }));
    const logins = await Promise.all([logIn(username, password), logIn(username, password), logIn(username, password)]);
    const ids = logins.map((login) => {
      expect(login.status).toBe(200);
      expect(login.body.access_token.merchant_id).toBe(merchant.merchant_id);
      return login.body.access_token.user_id;
    });
    expect(Number.isInteger(ids[0])).toBe(true);
    expect(new Set(ids).size).toBe(1);
    const later = await logIn(username, password);
    expect(later.body.access_token.user_id).toBe(ids[0]);
  });

  it("rejects a wrong password and an unknown username alike, with the docs' 422 word for word", async () => {
    await signUp('wrong-password@example.com');
    const expected = [
      { error: { object: 'access_token', property: 'base', message: 'The email address or password you provided is incorrect.', code: 'invalid_credentials' } },
    ];
    const wrongPassword = await logIn('wrong-password@example.com', 'not the password');
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body).toEqual(expected);
    const unknownUser = await logIn('nobody@example.com', 'first password');
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body).toEqual(expected);
  });

  it("rejects an unknown api_key with the docs' 422", async () => {
    await signUp('api-key@example.com');
    const response = await logIn('api-key@example.com', 'first password', 'not-an-api-key');
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: { object: 'access_token', property: 'api_key', message: 'Api key is invalid.', code: 'invalid_api_key' } }]);
  });

  it('answers 422 when fields are missing', async () => {
    const response = await api.call('POST', '/v15/access_tokens', { body: { access_token: { api_key: app.apiKey } } });
    expect(response.status).toBe(422);
    expect(response.body.map((entry: { error: { property: string } }) => entry.error.property).sort()).toEqual(['password', 'username']);
    expect(response.body[0].error.object).toBe('access_token');
  });

  it('after a password change logs in only with the new password', async () => {
    await signUp('change-password@example.com', 'old password');
    const login = await logIn('change-password@example.com', 'old password');
    const token = login.body.access_token.token;
    const update = await api.call('PUT', '/v15/users', { token, body: { user: { password: 'new password' } } });
    expect(update.status).toBe(200);
    expect((await logIn('change-password@example.com', 'old password')).status).toBe(422);
    expect((await logIn('change-password@example.com', 'new password')).status).toBe(200);
  });

  it('after an email change logs in only with the new email', async () => {
    await signUp('old-email@example.com', 'some password');
    const token = (await logIn('old-email@example.com', 'some password')).body.access_token.token;
    const update = await api.call('PUT', '/v15/users', { token, body: { user: { email: 'new-email@example.com' } } });
    expect(update.status).toBe(200);
    expect(update.body.user.email).toBe('new-email@example.com');
    expect((await logIn('old-email@example.com', 'some password')).status).toBe(422);
    expect((await logIn('new-email@example.com', 'some password')).status).toBe(200);
  });
});

describe('POST /v15/access_tokens/downgrades', () => {
  it('issues a limited, not unlimited, token that is refused where a dropped permission is needed', async () => {
    await signUp('downgrade@example.com', 'some password');
    const login = await logIn('downgrade@example.com', 'some password');
    const token = login.body.access_token.token;

    const response = await api.call('POST', '/v15/access_tokens/downgrades', {
      token,
      body: { access_token: { permission_keynames: ['read_qr_code', 'read_user_basic_info'] } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: { token: expect.any(String), app_id: app.appId, user_id: login.body.access_token.user_id, merchant_id: null },
    });
    const limited = response.body.access_token.token;
    expect(limited).not.toBe(token);

    expect((await api.call('GET', '/v15/payment_token', { token: limited })).status).toBe(200);
    expect((await api.call('GET', '/v15/users', { token: limited })).status).toBe(200);

    const addresses = await api.call('GET', '/v15/user_addresses', { token: limited });
    expect(addresses.status).toBe(401);
    expect(addresses.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'permissions' }) }]);

    const update = await api.call('PUT', '/v15/users', { token: limited, body: { user: { first_name: 'Nope' } } });
    expect(update.status).toBe(401);
    expect(update.body).toEqual([{ error: expect.objectContaining({ object: 'user' }) }]);

    // A downgraded token can be downgraded further, but not widened back.
    const widened = await api.call('POST', '/v15/access_tokens/downgrades', {
      token: limited,
      body: { access_token: { permission_keynames: ['manage_user_addresses'] } },
    });
    expect(widened.status).toBe(422);
    expect(widened.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'permission_keynames', code: 'not_held' }) }]);
    const narrower = await api.call('POST', '/v15/access_tokens/downgrades', {
      token: limited,
      body: { access_token: { permission_keynames: ['read_qr_code'] } },
    });
    expect(narrower.status).toBe(200);
  });

  it('refuses unknown permission names and permissions of the other subject', async () => {
    await signUp('downgrade-unknown@example.com', 'some password');
    const token = (await logIn('downgrade-unknown@example.com', 'some password')).body.access_token.token;
    const unknown = await api.call('POST', '/v15/access_tokens/downgrades', {
      token,
      body: { access_token: { permission_keynames: ['read_qr_code', 'launch_rockets'] } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'permission_keynames', code: 'unknown_permission' }) }]);
    const merchantPermission = await api.call('POST', '/v15/access_tokens/downgrades', {
      token,
      body: { access_token: { permission_keynames: ['manage_merchant_orders'] } },
    });
    expect(merchantPermission.status).toBe(422);
    const empty = await api.call('POST', '/v15/access_tokens/downgrades', { token, body: { access_token: { permission_keynames: [] } } });
    expect(empty.status).toBe(422);
  });

  it('downgrades a merchant token', async () => {
    const { merchant, token } = await merchantFixture(app.appId);
    const response = await api.call('POST', '/v15/access_tokens/downgrades', {
      authorization: `token merchant="${token}"`,
      body: { access_token: { permission_keynames: ['manage_gift_cards'] } },
    });
    expect(response.status).toBe(200);
    expect(response.body.access_token).toMatchObject({ app_id: app.appId, merchant_id: merchant.merchant_id, user_id: null });
  });

  it('needs a token', async () => {
    const response = await api.call('POST', '/v15/access_tokens/downgrades', { body: { access_token: { permission_keynames: USER_PERMISSIONS } } });
    expect(response.status).toBe(401);
    expect(Array.isArray(response.body)).toBe(true);
  });
});

/**
 * Identity as LevelUp's SDKs use it (section I of the SDK reference, docs/identity.md), through HTTP with
 * the SDKs' and docs' own bodies (test/fixtures/client-payloads/): app tokens, v14 login, users with
 * tokens, permissions requests, registration lookup, v14 users by id, and the user address calls.
 * The password-reset round trip is test/identity/password-reset.test.ts; lockouts and revocation are
 * test/identity/token-lifecycle.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { clientPayload, keysOf, missingKeys } from '../support/client-payloads.ts';
import { mailTo } from '../support/mailbox.ts';
import { useMailingTestApi, withReceiver } from '../support/webhooks.ts';

// Reset links and permissions-request notices are mailed from the table's stream, after the answer.
const mailing = useMailingTestApi();
const { api } = mailing;

const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

async function appToken(fixture = mailing.app): Promise<string> {
  const response = await api.call('POST', '/v15/access_tokens', { body: { api_key: fixture.apiKey, client_secret: fixture.clientSecret } });
  expect(response.status, response.text).toBe(200);
  return response.body.access_token.token;
}

describe('I1: app access tokens (api_key + client_secret, not wrapped)', () => {
  const reference = clientPayload('docs_v15_access_tokens__create_app.json');

  it("answers the docs' shape: app_id set, user_id and merchant_id null", async () => {
    const body = { ...reference.variants[0].request_body, api_key: mailing.app.apiKey, client_secret: mailing.app.clientSecret };
    const response = await api.call('POST', '/v15/access_tokens', { body });
    expect(response.status).toBe(200);
    expect(keysOf(response.body.access_token)).toEqual(keysOf(reference.variants[0].response_body.access_token));
    expect(response.body.access_token).toEqual({ app_id: mailing.app.app.app_id, merchant_id: null, token: expect.any(String), user_id: null });
    expect(Buffer.byteLength(response.body.access_token.token)).toBeLessThanOrEqual(100);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it("refuses the docs' own (unknown) keys with the docs' 422, and a wrong secret", async () => {
    const unknown = await api.call('POST', '/v15/access_tokens', { body: reference.variants[0].request_body });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual([{ error: { ...reference.errors[0].response_body[0].error, code: 'invalid_api_key' } }]);
    const wrongSecret = await api.call('POST', '/v15/access_tokens', { body: { api_key: mailing.app.apiKey, client_secret: 'f'.repeat(64) } });
    expect(wrongSecret.status).toBe(422);
    expect(wrongSecret.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', property: 'client_secret' }) }]);
  });

  it('is an app token: refused where a user or merchant token is needed', async () => {
    const token = await appToken();
    expect((await api.call('GET', '/v15/users', { token })).status).toBe(401);
    expect((await api.call('POST', '/v15/proposed_orders', { token, body: {} })).status).toBe(401);
  });
});

describe('I2: login on /v14 and /v15, client_id alias, the documented 422s', () => {
  it('logs a user in on /v14 with the iOS body (device_identifier) and answers the fields the SDKs read', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const reference = clientPayload('ios_v14_access_tokens__create.json');
    const body = {
      access_token: {
        ...reference.request_body_template.access_token,
        api_key: mailing.app.apiKey,
        username: user.email,
        password: user.password,
        device_identifier: 'ABC-123',
      },
    };
    const response = await api.call('POST', '/v14/access_tokens', { body });
    expect(response.status, response.text).toBe(200);
    expect(missingKeys(reference.response_body.access_token, response.body.access_token)).toEqual([]);
    expect(response.body.access_token).toMatchObject({ merchant_id: null, user_id: user.user.user_id });
    // An unlimited token: it may change the account.
    const update = await api.call('PUT', '/v15/users', { token: response.body.access_token.token, body: { user: { first_name: 'Logged' } } });
    expect(update.status).toBe(200);
  });

  it('takes client_id (the PowerShell module) in place of api_key, on both versions', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    for (const version of ['v14', 'v15']) {
      const response = await api.call('POST', `/${version}/access_tokens`, {
        body: { access_token: { client_id: mailing.app.apiKey, username: user.email, password: user.password } },
      });
      expect(response.status, `${version}: ${response.text}`).toBe(200);
    }
  });

  it("logs a merchant in on /v14 (the Ruby gem's create_for_merchant) and /v15 (C#), with merchant_id set and user_id the integer id of the person", async () => {
    const merchant = await merchantFixture(mailing.app.app.app_id);
    const csharp = clientPayload('csharp_v15_access_tokens__create.json');
    for (const version of ['v14', 'v15']) {
      const body = {
        access_token: { ...csharp.request_body.access_token, api_key: mailing.app.apiKey, username: merchant.username, password: merchant.password },
      };
      const response = await api.call('POST', `/${version}/access_tokens`, { body });
      expect(response.status, response.text).toBe(200);
      expect(missingKeys(csharp.response_body.access_token, response.body.access_token)).toEqual([]);
      expect(response.body.access_token).toMatchObject({ merchant_id: merchant.merchant.merchant_id, user_id: expect.any(Number), token: expect.any(String) });
      // The C# SDK's AccessToken.UserId is a non-nullable int: null fails its deserialisation.
      expect(Number.isInteger(response.body.access_token.user_id)).toBe(true);
    }
  });

  it("answers the docs' two 422s word for word on both versions", async () => {
    const reference = clientPayload('docs_v15_access_tokens__create_app.json');
    const user = await userFixture(mailing.app.app.app_id);
    for (const version of ['v14', 'v15']) {
      const badKey = await api.call('POST', `/${version}/access_tokens`, {
        body: { access_token: { api_key: 'not-a-key', username: user.email, password: user.password } },
      });
      expect(badKey.status).toBe(422);
      expect(badKey.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([
        { ...reference.errors[0].response_body[0].error, code: undefined },
      ]);
      const badPassword = await api.call('POST', `/${version}/access_tokens`, {
        body: { access_token: { api_key: mailing.app.apiKey, username: user.email, password: 'not the password' } },
      });
      expect(badPassword.status).toBe(422);
      expect(badPassword.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([
        { ...reference.errors[1].response_body[0].error, code: undefined },
      ]);
    }
  });
});

describe('I4/I5: a user and a token with exactly the requested permissions', () => {
  const docs = clientPayload('docs_v15_apps_users__create.json');

  it('creates with the newer docs body (api_key, phone, password, custom_attributes): user and access_token at the top', async () => {
    const request = docs.revisions[1].request_body;
    const address = email('ryan');
    const response = await api.call('POST', '/v15/apps/users', {
      body: { ...request, api_key: mailing.app.apiKey, user: { ...request.user, email: address } },
    });
    expect(response.status, response.text).toBe(200);
    expect(keysOf(response.body)).toEqual(['access_token', 'user']);
    const ios = clientPayload('ios_v15_apps_users__create.json');
    expect(missingKeys(ios.response_body.user, response.body.user)).toEqual([]);
    expect(response.body.user).toMatchObject({
      email: address,
      first_name: 'Ryan',
      last_name: 'Punxsutawney',
      phone: '(555) 555-5555',
      custom_attributes: { foo: 'bar', baz: 'qux' },
    });
    const token: string = response.body.access_token.token;
    expect(response.headers.get('cache-control')).toBe('no-store');

    // Exactly manage_user_payment_methods and create_orders: cards yes; the profile and QR code no; not unlimited.
    expect((await api.call('GET', '/v15/credit_cards', { token })).status).toBe(200);
    expect((await api.call('GET', '/v15/users', { token })).status).toBe(401);
    expect((await api.call('GET', '/v15/payment_token', { token })).status).toBe(401);
    expect((await api.call('PUT', '/v15/users', { token, body: { user: { first_name: 'X' } } })).status).toBe(401);
    // The password it was created with logs in.
    const login = await api.call('POST', '/v15/access_tokens', {
      body: { access_token: { api_key: mailing.app.apiKey, username: address, password: request.user.password } },
    });
    expect(login.status).toBe(200);
  });

  it("creates with an app token in the header and no api_key (older docs; the Ruby gem's apps.users.create sends api_key: null)", async () => {
    const token = await appToken();
    const older = docs.revisions[0].request_body;
    const body = { api_key: null, user: { ...older.user, email: email('older') }, permission_keynames: ['read_user_basic_info', 'create_orders'] };
    const response = await api.call('POST', '/v15/apps/users', { token, body });
    expect(response.status, response.text).toBe(200);
    expect(response.body.user.last_name).toBe('Punxsutawney');
    const me = await api.call('GET', '/v15/users', { token: response.body.access_token.token });
    expect(me.status).toBe(200);
    expect(me.body.user.app_id).toBe(mailing.app.app.app_id);
  });

  it('with both (the Ruby gem): they must name the same app', async () => {
    const token = await appToken();
    const other = await appFixture();
    const user = { email: email('both'), first_name: 'firstname', last_name: 'lastname' };
    const same = await api.call('POST', '/v15/apps/users', { token, body: { api_key: mailing.app.apiKey, user, permission_keynames: ['create_orders'] } });
    expect(same.status, same.text).toBe(200);
    const mismatch = await api.call('POST', '/v15/apps/users', {
      token,
      body: { api_key: other.apiKey, user: { ...user, email: email('mismatch') }, permission_keynames: ['create_orders'] },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toEqual([{ error: expect.objectContaining({ object: 'user', property: 'api_key', message: 'Api key is invalid.' }) }]);
  });

  it('ignores a user token or a stale token in the header (iOS sends whatever it holds) and uses the api_key', async () => {
    const holder = await userFixture(mailing.app.app.app_id);
    for (const authorization of [`token ${holder.token}`, `token ${'f'.repeat(64)}`]) {
      const response = await api.call('POST', '/v15/apps/users', {
        authorization,
        body: { api_key: mailing.app.apiKey, user: { email: email('held'), first_name: 'A', last_name: 'B' }, permission_keynames: ['read_qr_code'] },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.user.id).not.toBe(holder.user.user_id);
    }
    // Without an api_key, only an app token names the app.
    const noKey = await api.call('POST', '/v15/apps/users', {
      token: holder.token,
      body: { user: { email: email('nokey'), first_name: 'A', last_name: 'B' }, permission_keynames: ['read_qr_code'] },
    });
    expect(noKey.status).toBe(422);
    expect(noKey.body).toEqual([{ error: expect.objectContaining({ object: 'user', property: 'api_key' }) }]);
  });

  it("with the iOS body (api_key, no Authorization) and Android's POST /v15/users (terms_accepted)", async () => {
    const ios = clientPayload('ios_v15_apps_users__create.json').request_body_template;
    const viaIos = await api.call('POST', '/v15/apps/users', {
      body: { ...ios, api_key: mailing.app.apiKey, user: { email: email('ios'), first_name: 'John', last_name: 'Doe' }, permission_keynames: ['read_qr_code'] },
    });
    expect(viaIos.status, viaIos.text).toBe(200);
    expect((await api.call('GET', '/v15/payment_token', { token: viaIos.body.access_token.token })).status).toBe(200);

    const android = clientPayload('android_v15_users__create_with_permissions.json').request_body_template;
    const viaAndroid = await api.call('POST', '/v15/users', {
      body: {
        ...android,
        api_key: mailing.app.apiKey,
        user: { ...android.user, email: email('android'), first_name: 'Andy', last_name: 'Droid' },
        permission_keynames: ['read_user_basic_info'],
      },
    });
    expect(viaAndroid.status, viaAndroid.text).toBe(200);
    expect(keysOf(viaAndroid.body)).toEqual(['access_token', 'user']);
    expect((await api.call('GET', '/v15/users', { token: viaAndroid.body.access_token.token })).status).toBe(200);
  });

  it("answers the docs' 422s: email taken, permissions missing or invalid (create_first_credit_card is not a keyname here)", async () => {
    const taken = await userFixture(mailing.app.app.app_id);
    const duplicate = await api.call('POST', '/v15/apps/users', {
      body: {
        api_key: mailing.app.apiKey,
        user: { email: taken.email.toUpperCase(), first_name: 'A', last_name: 'B' },
        permission_keynames: ['create_orders'],
      },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([{ ...docs.errors[0].response_body[0].error, code: undefined }]);

    const token = await appToken();
    for (const keynames of [undefined, [], ['launch_rockets'], ['manage_merchant_orders'], docs.revisions[0].request_body.permission_keynames]) {
      const response = await api.call('POST', '/v15/apps/users', {
        token,
        body: { user: { email: email('perm'), first_name: 'A', last_name: 'B' }, ...(keynames ? { permission_keynames: keynames } : {}) },
      });
      expect(response.status, JSON.stringify(keynames)).toBe(422);
      expect(response.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([{ ...docs.errors[1].response_body[0].error, code: undefined }]);
    }
  });

  it("answers a bad api_key with 422 on every sign-up the SDKs send (iOS, Android, v14), never the 401 they read as 'log in again', creating no one", async () => {
    const ios = clientPayload('ios_v15_apps_users__create.json').request_body_template;
    const android = clientPayload('android_v15_users__create_with_permissions.json');
    const androidV14 = android.related_v14_bodies['POST /v14/users (email registration)'];
    const signUps = [
      { path: '/v15/apps/users', body: { ...ios, permission_keynames: ['read_qr_code'] }, user: ios.user },
      {
        path: '/v15/users',
        body: { ...android.request_body_template, permission_keynames: ['read_user_basic_info'] },
        user: android.request_body_template.user,
      },
      { path: '/v14/users', body: androidV14, user: { ...androidV14.user, password: 'a long password', lat: 42.35, lng: -71.06 } },
    ];
    for (const { path, body, user } of signUps) {
      const address = email('bad-key');
      const withUser = (apiKey: string) => ({ ...body, api_key: apiKey, user: { ...user, email: address, first_name: 'Ada', last_name: 'Byron' } });
      // The SDKs' placeholder as sent unfilled, a key of another length, and a stale one of the right form.
      for (const apiKey of ['<APP_API_KEY>', 'unknown', 'f'.repeat(mailing.app.apiKey.length)]) {
        const refused = await api.call('POST', path, { body: withUser(apiKey) });
        expect(refused.status, `${path} ${apiKey}: ${refused.text}`).toBe(422);
        expect(refused.body).toEqual([{ error: { object: 'user', property: 'api_key', message: 'Api key is invalid.', code: 'invalid_api_key' } }]);
        expect(refused.headers.get('www-authenticate')).toBeNull();
      }
      // Nothing was created: the same email signs up with the app's key.
      const created = await api.call('POST', path, { body: withUser(mailing.app.apiKey) });
      expect(created.status, `${path}: ${created.text}`).toBe(200);
      expect(created.body.user.email).toBe(address);
    }
  });

  it('a user created without a password cannot log in until one is set through the reset flow', async () => {
    const address = email('nopassword');
    const created = await api.call('POST', '/v15/apps/users', {
      body: { api_key: mailing.app.apiKey, user: { email: address, first_name: 'No', last_name: 'Password' }, permission_keynames: ['create_orders'] },
    });
    expect(created.status).toBe(200);
    for (const password of ['', 'anything at all']) {
      const login = await api.call('POST', '/v15/access_tokens', {
        body: { access_token: { api_key: mailing.app.apiKey, username: address, password: password || 'x' } },
      });
      expect(login.status).toBe(422);
    }
    const reset = await api.call('POST', '/v14/passwords', { body: { email: address } });
    expect(reset.status).toBe(204);
    const [mail] = await mailTo(address);
    expect(mail?.body.text).toContain('/password_reset#token=');
  });
});

describe('I6/I7: permissions requests', () => {
  const reference = clientPayload('docs_v15_apps_permissions_requests__create_show.json');

  async function ask(token: string, to: string, keynames: string[]) {
    return api.call('POST', '/v15/apps/permissions_requests', {
      token,
      body: { permissions_request: { ...reference.request_body.permissions_request, email: to, permission_keynames: keynames } },
    });
  }

  it('round trip: create -> pending (user emailed) -> accept -> the token comes once, with exactly those permissions', async () => {
    const token = await appToken();
    const user = await userFixture(mailing.app.app.app_id);
    const created = await ask(token, user.email, ['create_orders', 'read_user_basic_info']);
    expect(created.status, created.text).toBe(200);
    expect(keysOf(created.body.permissions_request)).toEqual(keysOf(reference.response_body.permissions_request));
    expect(created.body.permissions_request).toMatchObject({
      app_id: mailing.app.app.app_id,
      permission_keynames: ['create_orders', 'read_user_basic_info'],
      state: 'pending',
    });
    const id: number = created.body.permissions_request.id;

    const [notice] = await mailTo(user.email);
    expect(notice?.subject).toContain('asks for access');

    const polled = await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token, body: {} });
    expect(polled.status).toBe(200);
    expect(keysOf(polled.body.permissions_request)).toEqual(keysOf(reference.show.responses[0].response_body.permissions_request));
    expect(polled.body.permissions_request).toMatchObject({ email: user.email, state: 'pending', token: null });

    // The user's side: the docs' GET /v15/permissions_requests, then the answer.
    const pending = await api.call('GET', '/v15/permissions_requests', { token: user.token });
    expect(pending.status, pending.text).toBe(200);
    expect(keysOf(pending.body.permissions_request)).toEqual(keysOf(reference.user_side_pending_request_docs_only.response_body.permissions_request));
    expect(pending.body.permissions_request.permissions.map((entry: any) => entry.permission.keyname)).toEqual(['create_orders', 'read_user_basic_info']);
    const accepted = await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'accepted' } } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.permissions_request.state).toBe('accepted');
    expect((await api.call('GET', '/v15/permissions_requests', { token: user.token })).status).toBe(404);

    const delivered = await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token });
    expect(delivered.body.permissions_request).toMatchObject({
      state: 'accepted',
      token: expect.any(String),
      permission_keynames: ['create_orders', 'read_user_basic_info'],
    });
    expect(delivered.headers.get('cache-control')).toBe('no-store');
    const granted: string = delivered.body.permissions_request.token;
    // Once: stored hashed, never shown again.
    const again = await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token });
    expect(again.body.permissions_request).toMatchObject({ state: 'accepted', token: null });

    // Exactly those permissions and no others, for that user, as the asking app.
    const me = await api.call('GET', '/v15/users', { token: granted });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: user.user.user_id, app_id: mailing.app.app.app_id });
    expect((await api.call('GET', '/v15/payment_token', { token: granted })).status).toBe(401);
    expect((await api.call('GET', '/v15/credit_cards', { token: granted })).status).toBe(401);
    expect((await api.call('PUT', '/v15/users', { token: granted, body: { user: { first_name: 'X' } } })).status).toBe(401);
  });

  it('reject -> no token; the request is answered once; one pending request per user', async () => {
    const token = await appToken();
    const user = await userFixture(mailing.app.app.app_id);
    const first = await ask(token, user.email, ['read_qr_code']);
    expect(first.status).toBe(200);
    const second = await ask(token, user.email, ['create_orders']);
    expect(second.status).toBe(422);
    expect(second.body).toEqual([{ error: expect.objectContaining({ object: 'permissions_request', property: 'email', code: 'pending_exists' }) }]);

    const id = first.body.permissions_request.id;
    const rejected = await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'rejected' } } });
    expect(rejected.status).toBe(200);
    const polled = await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token });
    expect(polled.body.permissions_request).toMatchObject({ state: 'rejected', token: null });
    const late = await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'accepted' } } });
    expect(late.status).toBe(422);
    expect((await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token })).body.permissions_request.token).toBeNull();
    // Answered: the user may be asked again.
    expect((await ask(token, user.email, ['create_orders'])).status).toBe(200);
  });

  it('needs an unlimited user token to answer, asks strangers like users, and validates keynames', async () => {
    const token = await appToken();
    const user = await userFixture(mailing.app.app.app_id, { unlimited: false });
    const created = await ask(token, user.email, ['create_orders']);
    const answer = await api.call('PUT', `/v15/permissions_requests/${created.body.permissions_request.id}`, {
      token: user.token,
      body: { permissions_request: { state: 'accepted' } },
    });
    expect(answer.status).toBe(401);
    // An email no user has is asked like any other (test/identity/registration-oracle.test.ts): nobody is mailed.
    const stranger = await ask(token, email('stranger'), ['create_orders']);
    expect(stranger.status).toBe(200);
    expect(stranger.body.permissions_request.state).toBe('pending');
    const invalid = await ask(token, user.email, ['launch_rockets']);
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual([{ error: expect.objectContaining({ property: 'permission_keynames', message: 'Permissions missing or keynames invalid' }) }]);
  });

  it("POSTs the token to the app's callback URL when it has one; then polling shows null", () =>
    withReceiver(async (callback) => {
      const withCallback = await appFixture({ callbackUrl: callback.url });
      const token = await appToken(withCallback);
      const user = await userFixture(mailing.app.app.app_id);
      const id = (await ask(token, user.email, ['read_user_basic_info'])).body.permissions_request.id;
      const accepted = await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'accepted' } } });
      expect(accepted.status).toBe(200);
      const received: unknown[] = callback.received.map((post) => JSON.parse(post.body));
      expect(received).toEqual([{ permissions_request: { id, state: 'accepted', token: expect.any(String) } }]);
      expect(keysOf((received[0] as any).permissions_request)).toEqual(keysOf(reference.callback_post_to_app_url.permissions_request));
      const granted = (received[0] as any).permissions_request.token;
      expect((await api.call('GET', '/v15/users', { token: granted })).status).toBe(200);
      expect((await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token })).body.permissions_request.token).toBeNull();
    }));

  it('a callback that fails leaves the token to the next poll (and the token it carried is dead)', () =>
    withReceiver(async (callback) => {
      callback.answerWith(() => 500);
      const failing = await appFixture({ callbackUrl: callback.url });
      const token = await appToken(failing);
      const user = await userFixture(mailing.app.app.app_id);
      const id = (await ask(token, user.email, ['read_user_basic_info'])).body.permissions_request.id;
      expect(
        (await api.call('PUT', `/v15/permissions_requests/${id}`, { token: user.token, body: { permissions_request: { state: 'accepted' } } })).status,
      ).toBe(200);
      const polled = await api.call('GET', `/v15/apps/permissions_requests/${id}`, { token });
      expect(polled.body.permissions_request.token).toEqual(expect.any(String));
      expect((await api.call('GET', '/v15/users', { token: polled.body.permissions_request.token })).status).toBe(200);
      const carried: string[] = callback.received.map((post) => JSON.parse(post.body).permissions_request.token);
      expect(carried).toHaveLength(1);
      expect((await api.call('GET', '/v15/users', { token: carried[0] })).status).toBe(401);
    }));
});

describe('I8: registration lookup', () => {
  const reference = clientPayload('ios_v15_registration__show.json');

  it('answers app_name, description and facebook for a registered email, the docs 404 otherwise', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const found = await api.call('GET', `/v15/registration?api_key=${encodeURIComponent(mailing.app.apiKey)}&email=${encodeURIComponent(user.email)}`);
    expect(found.status).toBe(200);
    expect(keysOf(found.body.registration)).toEqual(keysOf(reference.response_body.registration));
    expect(found.body.registration).toMatchObject({
      app_name: mailing.app.app.name,
      facebook: false,
      description: expect.stringContaining(mailing.app.app.name),
    });
    const missing = await api.call('GET', `/v15/registration?api_key=${encodeURIComponent(mailing.app.apiKey)}&email=${encodeURIComponent(email('nobody'))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([
      { ...reference.not_found.response_body[0].error, code: undefined },
    ]);
    const badKey = await api.call('GET', `/v15/registration?api_key=nope&email=${encodeURIComponent(user.email)}`);
    expect(badKey.status).toBe(422);
  });
});

describe('I9: POST /v14/passwords', () => {
  it('answers 204 whether or not the email is registered, and the docs 422 for a blank or malformed one', async () => {
    const csharp = clientPayload('csharp_v14_passwords__create.json');
    const unknown = await api.call('POST', '/v14/passwords', { body: csharp.request_body });
    expect(unknown.status).toBe(204);
    expect(unknown.text).toBe('');
    const user = await userFixture(mailing.app.app.app_id);
    expect((await api.call('POST', '/v14/passwords', { body: { email: user.email } })).status).toBe(204);
    expect(await mailTo(user.email)).toHaveLength(1);
    expect(await mailTo(csharp.request_body.email, { timeoutMs: 0 })).toHaveLength(0);

    const docs = clientPayload('docs_v14_passwords__create_errors.json');
    for (const body of [{ email: '' }, { email: 'not an email' }, {}, { email: 42 }]) {
      const response = await api.call('POST', '/v14/passwords', { body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.map((entry: any) => ({ ...entry.error, code: undefined }))).toEqual([{ ...docs.errors[0].response_body[0].error, code: undefined }]);
    }
  });
});

describe('I10-I12: the user, by token and by id (v14)', () => {
  it('GET /v15/users and GET /v14/users/:id answer every field the iOS and C# SDKs read', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const ios = clientPayload('ios_v15_users__show.json').variants[0].response_body.user;
    const csharp = clientPayload('csharp_v14_users_id__show.json').response_body.user;
    const v15 = await api.call('GET', '/v15/users', { token: user.token, body: {} });
    expect(missingKeys(ios, v15.body.user)).toEqual([]);
    const v14 = await api.call('GET', `/v14/users/${user.user.user_id}`, { token: user.token });
    expect(v14.status).toBe(200);
    expect(missingKeys(csharp, v14.body.user)).toEqual([]);
    expect(v14.body.user.id).toBe(user.user.user_id);
  });

  it("another user's id (or an unknown one) is 404 with no body, for reading and updating", async () => {
    const me = await userFixture(mailing.app.app.app_id);
    const other = await userFixture(mailing.app.app.app_id);
    for (const id of [other.user.user_id, 999999999]) {
      const read = await api.call('GET', `/v14/users/${id}`, { token: me.token });
      expect(read.status).toBe(404);
      expect(read.text).toBe('');
      const update = await api.call('PUT', `/v14/users/${id}`, { token: me.token, body: { user: { first_name: 'Mallory' } } });
      expect(update.status).toBe(404);
      expect(update.text).toBe('');
    }
    const unchanged = await api.call('GET', '/v15/users', { token: other.token });
    expect(unchanged.body.user.first_name).toBe('Test');
  });

  it('PUT /v14/users/:id takes the C# body (new_password) and merges custom_attributes as documented', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const csharp = clientPayload('csharp_v14_users_id__update.json');
    const path = `/v14/users/${user.user.user_id}`;
    const empty = await api.call('PUT', path, { token: user.token, body: csharp.request_body_template });
    expect(empty.status).toBe(200);
    expect(missingKeys(csharp.response_body.user, empty.body.user)).toEqual([]);
    await api.call('PUT', path, { token: user.token, body: { user: { custom_attributes: { foo: 'bar', baz: 'qux' } } } });
    const merged = await api.call('PUT', path, {
      token: user.token,
      body: { user: { custom_attributes: { foo: 'buz', honk: 'blat' }, new_password: 'a brand new password' } },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.user.custom_attributes).toEqual({ foo: 'buz', baz: 'qux', honk: 'blat' });
    const login = await api.call('POST', '/v14/access_tokens', {
      body: { access_token: { api_key: mailing.app.apiKey, username: user.email, password: 'a brand new password' } },
    });
    expect(login.status).toBe(200);
    const short = await api.call('PUT', path, { token: user.token, body: { user: { new_password: 'short' } } });
    expect(short.status).toBe(422);
  });
});

describe('I15-I16: user addresses with the SDKs bodies', () => {
  it('creates with the six keys iOS and Ruby send and lists the fields C# and iOS read', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const ios = clientPayload('ios_v15_user_addresses__create_and_list.json');
    const body = {
      user_address: { address_type: 'home', extended_address: 'Apt 1', locality: 'Boston', postal_code: '02114', region: 'MA', street_address: '123 Main St' },
    };
    expect(keysOf(body.user_address)).toEqual(keysOf(ios.request_body_template.user_address));
    const created = await api.call('POST', '/v15/user_addresses', { authorization: `token user="${user.token}"`, body });
    expect(created.status, created.text).toBe(200);
    expect(missingKeys(ios.response_body.user_address, created.body.user_address)).toEqual([]);
    const list = await api.call('GET', '/v15/user_addresses', { token: user.token });
    expect(list.status).toBe(200);
    const csharp = clientPayload('csharp_v15_user_addresses__list.json');
    expect(missingKeys(csharp.response_body[0].user_address, list.body[0].user_address)).toEqual([]);
    expect(missingKeys(ios.list.response_body[0].user_address, list.body[0].user_address)).toEqual([]);
    const docs = clientPayload('docs_v15_user_addresses__create.json');
    const fromDocs = await api.call('POST', '/v15/user_addresses', { token: user.token, body: docs.request_body });
    expect(fromDocs.status, fromDocs.text).toBe(200);
  });
});

describe("the Ruby gem's calls, as lib/levelup/requests/*.rb send them", () => {
  /** The gem's request: JSON body always (`{}` on GET), Accept and Content-Type JSON, untagged `token <t>` for app auth. */
  const gem = (method: string, path: string, body: unknown, token?: string) =>
    api.call(method, path, { body, headers: { 'Content-Type': 'application/json' }, ...(token ? { authorization: `token ${token}` } : {}) });
  /** response.success? in HTTParty: a 2xx. A failure's body must be the error array the gem reads `body[i]["error"]` from. */
  const failedAsTheGemReads = (response: { status: number; body: any }) => {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.body.every((entry: any) => typeof entry.error.message === 'string')).toBe(true);
  };

  it('access_tokens.create_for_app, then apps.users.create and apps.permissions_requests.create/show with that token', async () => {
    const auth = await gem('POST', '/v15/access_tokens', { api_key: mailing.app.apiKey, client_secret: mailing.app.clientSecret });
    expect(auth.status).toBe(200);
    const token: string = auth.body.access_token.token;
    expect(token).not.toBe('');
    failedAsTheGemReads(await gem('POST', '/v15/access_tokens', { api_key: 'wrong_api_key', client_secret: 'wrong_client_secret' }));
    // With no predefined key and secret the gem sends both as null.
    failedAsTheGemReads(await gem('POST', '/v15/access_tokens', { api_key: null, client_secret: null }));

    const created = await gem(
      'POST',
      '/v15/apps/users',
      { api_key: mailing.app.apiKey, user: { email: email('some'), first_name: 'firstname', last_name: 'lastname' }, permission_keynames: ['create_orders'] },
      token,
    );
    expect(created.status, created.text).toBe(200);
    expect(created.body.user.last_name).toBe('lastname');

    const user = await userFixture(mailing.app.app.app_id);
    const requested = await gem(
      'POST',
      '/v15/apps/permissions_requests',
      { permissions_request: { email: user.email, permission_keynames: ['read_user_basic_info'] } },
      token,
    );
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body.permissions_request.state).toBe('pending');
    const shown = await gem('GET', `/v15/apps/permissions_requests/${requested.body.permissions_request.id}`, {}, token);
    expect(shown.status).toBe(200);
    expect(shown.body.permissions_request.permission_keynames).toEqual(['read_user_basic_info']);
  });

  it('access_tokens.create_for_merchant posts to /v14 and reads token and merchant_id', async () => {
    const merchant = await merchantFixture(mailing.app.app.app_id);
    const auth = await gem('POST', '/v14/access_tokens', {
      access_token: { api_key: mailing.app.apiKey, username: merchant.username, password: merchant.password },
    });
    expect(auth.status).toBe(200);
    expect(auth.body.access_token).toMatchObject({ token: expect.any(String), merchant_id: merchant.merchant.merchant_id });
    failedAsTheGemReads(await gem('POST', '/v14/access_tokens', { access_token: { api_key: 'abc123', username: 'username_wrong', password: 'password1' } }));
  });
});

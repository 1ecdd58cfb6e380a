import { describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, useAppFixture, userFixture } from '../support/fixtures.ts';
import { callWithBody } from '../support/identity.ts';

const api = useTestApi();
const app = useAppFixture();

const V14_USER_KEYS = [
  'born_at',
  'cause_id',
  'connected_to_facebook',
  'custom_attributes',
  'email',
  'first_name',
  'gender',
  'global_credit_amount',
  'id',
  'last_name',
  'merchants_visited_count',
  'orders_count',
  'terms_accepted_at',
  'total_savings_amount',
].sort();

function errorsOf(body: { error: { object: string; property: string } }[]) {
  return body.map(({ error }) => `${error.object}/${error.property}`).sort();
}

describe('POST /v14/users', () => {
  it('creates a user and answers in the v14 shape (no app_id, debit_card_only, phone, user_app_id)', async () => {
    // The LevelUp docs' own example request, but for its 6-character `s3cr3t`: passwords need 8 characters (NIST SP 800-63B).
    const docsExample = { user: { email: 'ryanp@thelevelup.com', first_name: 'Ryan', last_name: 'Punxsutawney', password: 's3cr3t' }, api_key: app.apiKey };
    const tooShort = await api.call('POST', '/v14/users', { body: docsExample });
    expect(tooShort.status).toBe(422);
    expect(tooShort.body).toEqual([
      { error: { object: 'user', property: 'password', message: 'Password is too short (minimum is 8 characters)', code: 'invalid' } },
    ]);
    const response = await api.call('POST', '/v14/users', { body: { ...docsExample, user: { ...docsExample.user, password: 's3cr3t-passphrase' } } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.user).sort()).toEqual(V14_USER_KEYS);
    expect(response.body.user).toMatchObject({
      id: expect.any(Number),
      email: 'ryanp@thelevelup.com',
      first_name: 'Ryan',
      last_name: 'Punxsutawney',
      born_at: null,
      gender: null,
      custom_attributes: {},
      global_credit_amount: 0,
      orders_count: 0,
    });
    for (const absent of ['app_id', 'debit_card_only', 'phone', 'user_app_id']) expect(response.body.user).not.toHaveProperty(absent);
  });

  it('keeps the optional profile fields the iOS SDK sends at sign-up', async () => {
    const response = await api.call('POST', '/v14/users', {
      body: {
        api_key: app.apiKey,
        user: {
          email: 'ios-signup@example.com',
          first_name: 'I',
          last_name: 'OS',
          password: 'ios password',
          born_at: '1980-01-01T00:00:00-05:00',
          gender: 'male',
          phone: '(123) 123-1234',
          terms_accepted: true,
          device_identifier: 'abc',
        },
      },
    });
    expect(response.status).toBe(200);
    // The date is kept and answered as a datetime the SDKs parse (issue 34.13).
    expect(response.body.user).toMatchObject({ born_at: '1980-01-01T12:00:00+00:00', gender: 'male' });
  });

  it('answers 422 user/email when the email is taken, whatever its case', async () => {
    const body = { api_key: app.apiKey, user: { email: 'taken@example.com', first_name: 'A', last_name: 'B', password: 'password 1' } };
    expect((await api.call('POST', '/v14/users', { body })).status).toBe(200);
    const again = await api.call('POST', '/v14/users', { body: { ...body, user: { ...body.user, email: 'Taken@Example.com' } } });
    expect(again.status).toBe(422);
    expect(again.body).toEqual([{ error: { object: 'user', property: 'email', message: 'Email already associated with another app', code: 'taken' } }]);
  });

  it('answers 422 naming every missing field', async () => {
    const response = await api.call('POST', '/v14/users', { body: { api_key: app.apiKey, user: {} } });
    expect(response.status).toBe(422);
    expect(errorsOf(response.body)).toEqual(['user/email', 'user/first_name', 'user/last_name', 'user/password']);
    expect(response.body[0].error.message).toBe("Email can't be blank");
    const noApiKey = await api.call('POST', '/v14/users', {
      body: { user: { email: 'x@example.com', first_name: 'A', last_name: 'B', password: 'password 1' } },
    });
    expect(noApiKey.status).toBe(422);
    expect(errorsOf(noApiKey.body)).toEqual(['user/api_key']);
  });

  it('answers 422 for a malformed email and a short password', async () => {
    const response = await api.call('POST', '/v14/users', {
      body: { api_key: app.apiKey, user: { email: 'not-an-email', first_name: 'A', last_name: 'B', password: '12345' } },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([
      { error: { object: 'user', property: 'email', message: 'Email is not a valid email address', code: 'invalid' } },
      { error: { object: 'user', property: 'password', message: 'Password is too short (minimum is 8 characters)', code: 'invalid' } },
    ]);
  });

  it('answers 422 for an unknown api_key (the contract lists only 422 here; the mobile SDKs read 401 as "log in again")', async () => {
    const response = await api.call('POST', '/v14/users', {
      body: { api_key: 'unknown', user: { email: 'unknown-key@example.com', first_name: 'A', last_name: 'B', password: 'password 1' } },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: { object: 'user', property: 'api_key', message: 'Api key is invalid.', code: 'invalid_api_key' } }]);
  });
});

describe('GET /v15/users', () => {
  it('answers the current user in the v15 shape; a GET with {} and a JSON content type works', async () => {
    const { user, token, email } = await userFixture(app.appId);
    const raw = await callWithBody(api.baseUrl, 'GET', '/v15/users', { Authorization: `token ${token}` }, '{}');
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.text).user).toMatchObject({
      id: user.user_id,
      app_id: app.appId,
      user_app_id: user.user_id,
      debit_card_only: false,
      phone: null,
      email,
      custom_attributes: {},
    });
  });

  it('answers 401 for an invalid token', async () => {
    const response = await api.call('GET', '/v15/users', { token: 'f'.repeat(64) });
    expect(response.status).toBe(401);
    expect(Array.isArray(response.body)).toBe(true);
  });

  it('accepts all three Authorization forms', async () => {
    const app = await appFixture();
    const { user, token } = await userFixture(app.app.app_id);
    const { token: mToken } = await merchantFixture(app.app.app_id);
    for (const authorization of [`token ${token}`, `token user="${token}"`, `token merchant="${mToken}", user="${token}"`]) {
      const response = await api.call('GET', '/v15/users', { authorization });
      expect(response.status, authorization).toBe(200);
      expect(response.body.user.id).toBe(user.user_id);
    }
  });
});

describe('PUT /v15/users', () => {
  async function update(token: string, user: Record<string, unknown>) {
    return api.call('PUT', '/v15/users', { token, body: { user } });
  }

  it('changes each field', async () => {
    const { token } = await userFixture(app.appId);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ first_name: 'Grace' }, { first_name: 'Grace' }],
      [{ last_name: 'Hopper' }, { last_name: 'Hopper' }],
      [{ email: 'grace.hopper@example.com' }, { email: 'grace.hopper@example.com' }],
      [{ born_at: '1906-12-09' }, { born_at: '1906-12-09T12:00:00+00:00' }],
      [{ born_at: null }, { born_at: null }],
      [{ gender: 'female' }, { gender: 'female' }],
      [
        { gender: 'custom', custom_gender: 'admiral' },
        { gender: 'custom', custom_gender: 'admiral' },
      ],
      [{ gender: 'prefer_not_to_answer' }, { gender: 'prefer_not_to_answer', custom_gender: null }],
      [{ gender: null }, { gender: null }],
      [{ phone: '+1 (617) 555-0100' }, { phone: '+1 (617) 555-0100' }],
      [{ phone: null }, { phone: null }],
      [{ custom_attributes: { favorite: 'cobol' } }, { custom_attributes: { favorite: 'cobol' } }],
      [{ password: 'a new password' }, {}],
      [{ new_password: 'another password', terms_accepted: true }, {}],
      [{}, {}],
    ];
    for (const [change, expected] of cases) {
      const response = await update(token, change);
      expect(response.status, JSON.stringify(change)).toBe(200);
      expect(response.body.user, JSON.stringify(change)).toMatchObject(expected);
    }
    const shown = await api.call('GET', '/v15/users', { token });
    expect(shown.body.user).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace.hopper@example.com',
      custom_attributes: { favorite: 'cobol' },
    });
  });

  it('validates gender, custom_gender and born_at', async () => {
    const { token } = await userFixture(app.appId);
    const invalid: [Record<string, unknown>, string][] = [
      [{ gender: 'robot' }, 'user/gender'],
      [{ gender: 'male', custom_gender: 'x' }, 'user/custom_gender'],
      [{ custom_gender: 'x' }, 'user/custom_gender'],
      [{ born_at: '1990-02-30' }, 'user/born_at'],
      [{ born_at: '12/09/1906' }, 'user/born_at'],
      [{ born_at: '2999-01-01' }, 'user/born_at'],
      [{ email: 'nope' }, 'user/email'],
      [{ email: null }, 'user/email'],
      [{ first_name: '   ' }, 'user/first_name'],
      [{ password: 'short' }, 'user/password'],
      [{ phone: 'call me' }, 'user/phone'],
      [{ custom_attributes: 'flat' }, 'user/custom_attributes'],
      [{ custom_attributes: { 'bad key': 'x' } }, 'user/custom_attributes'],
      [{ custom_attributes: { ok: 5 } }, 'user/custom_attributes.ok'],
      [{ custom_attributes: { long: 'x'.repeat(1025) } }, 'user/custom_attributes.long'],
    ];
    for (const [change, expected] of invalid) {
      const response = await update(token, change);
      expect(response.status, JSON.stringify(change)).toBe(422);
      expect(errorsOf(response.body), JSON.stringify(change)).toEqual([expected]);
    }
    const unchanged = await api.call('GET', '/v15/users', { token });
    expect(unchanged.body.user).toMatchObject({ gender: null, born_at: null, first_name: 'Test' });
  });

  it('custom_gender may follow an earlier gender custom; choosing another gender clears it', async () => {
    const { token } = await userFixture(app.appId);
    expect((await update(token, { gender: 'custom' })).status).toBe(200);
    expect((await update(token, { custom_gender: 'nonbinary' })).body.user).toMatchObject({ gender: 'custom', custom_gender: 'nonbinary' });
    expect((await update(token, { gender: 'female' })).body.user).toMatchObject({ gender: 'female', custom_gender: null });
  });

  it('scopes custom_attributes by the token’s app; null removes a key; at most 50 keys per app', async () => {
    const otherApp = await appFixture();
    const { user, token } = await userFixture(app.appId);
    const otherToken = await issueToken({ subject: 'user', userId: user.user_id, appId: otherApp.app.app_id, permissions: USER_PERMISSIONS, unlimited: true });

    expect((await update(token, { custom_attributes: { tier: 'gold', color: 'blue' } })).body.user.custom_attributes).toEqual({ tier: 'gold', color: 'blue' });
    expect((await update(otherToken, { custom_attributes: { tier: 'silver' } })).body.user.custom_attributes).toEqual({ tier: 'silver' });
    expect((await api.call('GET', '/v15/users', { token })).body.user.custom_attributes).toEqual({ tier: 'gold', color: 'blue' });
    expect((await api.call('GET', '/v15/users', { token: otherToken })).body.user).toMatchObject({
      app_id: otherApp.app.app_id,
      custom_attributes: { tier: 'silver' },
    });

    expect((await update(token, { custom_attributes: { color: null } })).body.user.custom_attributes).toEqual({ tier: 'gold' });

    const many = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`key_${i}`, 'v']));
    expect((await update(token, { custom_attributes: many })).status).toBe(200);
    const overflow = await update(token, { custom_attributes: { one_too_many: 'v' } });
    expect(overflow.status).toBe(422);
    expect(overflow.body).toEqual([{ error: expect.objectContaining({ object: 'user', property: 'custom_attributes', code: 'too_many' }) }]);
  });

  it('answers 422 when the new email belongs to someone else', async () => {
    const { token } = await userFixture(app.appId);
    const { email } = await userFixture(app.appId);
    const response = await update(token, { email });
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: { object: 'user', property: 'email', message: 'Email already associated with another app', code: 'taken' } }]);
  });

  it('answers 401 with an error array for a downgraded token', async () => {
    const { token } = await userFixture(app.appId, { unlimited: false });
    const response = await update(token, { first_name: 'Nope' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'user', property: 'base' }) }]);
  });
});

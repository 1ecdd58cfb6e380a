/**
 * Login protection and the token lifecycle (docs/security.md), through HTTP against the local stack:
 * lockouts per account and per client, logout, revocation on a password change, lifetimes, downgrades
 * dying with their parent, card-vaulting limits, and the headers token, QR and card answers carry.
 * Each test sends from its own loopback address (127.0.0.x): the per-client limits key on it.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { setStoredAttributes } from '../support/stored-items.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { sha256 } from '#shared/auth/secrets.ts';
import { TOKEN_LIFETIME_SECONDS } from '#shared/auth/tokens.ts';
import { ACCOUNT_LOGIN_FAILURES, CARD_VAULT_ATTEMPTS, CLIENT_LOGIN_FAILURES, windowKey } from '#shared/domain/rate-limits.ts';
import { MAX_AUTHORIZATION_LENGTH } from '#shared/auth/header.ts';
import { SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { endWindow } from '../support/rate-limit-windows.ts';
import { useTestApi, type ApiCall, type TestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';

const api = useTestApi();
let app: Awaited<ReturnType<typeof appFixture>>;

beforeAll(async () => {
  app = await appFixture();
});

function logIn(username: string, password: string, from: string, version = 'v15') {
  return api.call('POST', `/${version}/access_tokens`, { localAddress: from, body: { access_token: { api_key: app.apiKey, username, password } } });
}

describe('login protection', () => {
  it('20 wrong passwords, then the right one: 429 with Retry-After until the window passes', async () => {
    const user = await userFixture(app.app.app_id);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) statuses.push((await logIn(user.email, `wrong password ${attempt}`, '127.0.0.11')).status);
    expect(statuses.slice(0, ACCOUNT_LOGIN_FAILURES.limit)).toEqual(Array(ACCOUNT_LOGIN_FAILURES.limit).fill(422));
    expect(statuses.slice(ACCOUNT_LOGIN_FAILURES.limit)).toEqual(Array(20 - ACCOUNT_LOGIN_FAILURES.limit).fill(429));

    const right = await logIn(user.email, user.password, '127.0.0.11');
    expect(right.status).toBe(429);
    const retryAfter = Number(right.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_LOGIN_FAILURES.windowSeconds);
    expect(right.body).toEqual([{ error: expect.objectContaining({ object: 'access_token', code: 'login_locked' }) }]);
    // Per account, not per client: another address is locked out of this account too, on v14 as well.
    expect((await logIn(user.email, user.password, '127.0.0.12', 'v14')).status).toBe(429);
    // Other accounts are not.
    const other = await userFixture(app.app.app_id);
    expect((await logIn(other.email, other.password, '127.0.0.12')).status).toBe(200);

    await endWindow(windowKey(ACCOUNT_LOGIN_FAILURES, user.email.toLowerCase()));
    expect((await logIn(user.email, user.password, '127.0.0.11')).status).toBe(200);
  });

  it('30 concurrent wrong passwords: at most 10 are checked, the rest are 429, and the right one then too', async () => {
    const user = await userFixture(app.app.app_id);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => logIn(user.email, `burst guess ${attempt}`, '127.0.0.23').then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 422).length).toBeLessThanOrEqual(ACCOUNT_LOGIN_FAILURES.limit);
    expect(statuses.filter((status) => status !== 422 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30 - ACCOUNT_LOGIN_FAILURES.limit);
    expect((await logIn(user.email, user.password, '127.0.0.23')).status).toBe(429);
  });

  it('a successful login forgives earlier failures; unknown usernames lock like real ones', async () => {
    const user = await userFixture(app.app.app_id);
    for (let attempt = 0; attempt < ACCOUNT_LOGIN_FAILURES.limit - 1; attempt++) await logIn(user.email, 'wrong', '127.0.0.13');
    expect((await logIn(user.email, user.password, '127.0.0.13')).status).toBe(200);
    expect((await logIn(user.email, 'wrong again', '127.0.0.13')).status).toBe(422);
    expect((await logIn(user.email, user.password, '127.0.0.13')).status).toBe(200);

    const nobody = `nobody-${randomUUID()}@example.com`;
    for (let attempt = 0; attempt < ACCOUNT_LOGIN_FAILURES.limit; attempt++) expect((await logIn(nobody, 'guess', '127.0.0.14')).status).toBe(422);
    expect((await logIn(nobody, 'guess', '127.0.0.14')).status).toBe(429);
  });

  it('merchant logins lock the same way', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    for (let attempt = 0; attempt < ACCOUNT_LOGIN_FAILURES.limit; attempt++) await logIn(merchant.username, 'wrong', '127.0.0.15', 'v14');
    const right = await logIn(merchant.username, merchant.password, '127.0.0.15', 'v14');
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('one client gets a capped number of failed logins across accounts', async () => {
    const from = '127.0.0.16';
    const statuses: number[] = [];
    // Spread over many accounts (9 each, under the per-account lock) so only the client cap can stop it.
    for (let attempt = 0; attempt <= CLIENT_LOGIN_FAILURES.limit; attempt++)
      statuses.push((await logIn(`walker-${Math.floor(attempt / 9)}@example.com`, 'password1', from)).status);
    expect(statuses.slice(0, CLIENT_LOGIN_FAILURES.limit).every((status) => status === 422)).toBe(true);
    const capped = await logIn('walker-new@example.com', 'password1', from);
    expect(capped.status).toBe(429);
    expect(capped.body).toEqual([{ error: expect.objectContaining({ code: 'too_many_failed_logins' }) }]);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client still logs in.
    const user = await userFixture(app.app.app_id);
    expect((await logIn(user.email, user.password, '127.0.0.17')).status).toBe(200);
    // Wrong app secrets count against the client too.
    const appGrant = await api.call('POST', '/v15/access_tokens', { localAddress: from, body: { api_key: app.apiKey, client_secret: app.clientSecret } });
    expect(appGrant.status).toBe(429);
  });

  it('passwords need 8 characters at sign-up and on change', async () => {
    const signUp = await api.call('POST', '/v14/users', {
      body: { api_key: app.apiKey, user: { email: `short-${randomUUID()}@example.com`, first_name: 'A', last_name: 'B', password: '1234567' } },
    });
    expect(signUp.status).toBe(422);
    expect(signUp.body).toEqual([
      { error: expect.objectContaining({ object: 'user', property: 'password', message: 'Password is too short (minimum is 8 characters)' }) },
    ]);
    const user = await userFixture(app.app.app_id);
    const change = await api.call('PUT', '/v15/users', { token: user.token, body: { user: { password: '1234567' } } });
    expect(change.status).toBe(422);
    expect((await api.call('PUT', '/v15/users', { token: user.token, body: { user: { password: '12345678' } } })).status).toBe(200);
  });
});

describe('token lifecycle', () => {
  it('logout: DELETE /v15/access_tokens answers 204, then the token is 401 (and tokens downgraded from it die with it)', async () => {
    const user = await userFixture(app.app.app_id);
    const session = (await logIn(user.email, user.password, '127.0.0.18')).body.access_token.token;
    const child = (
      await api.call('POST', '/v15/access_tokens/downgrades', { token: session, body: { access_token: { permission_keynames: ['read_user_basic_info'] } } })
    ).body.access_token.token;
    const grandchild = (
      await api.call('POST', '/v15/access_tokens/downgrades', { token: child, body: { access_token: { permission_keynames: ['read_user_basic_info'] } } })
    ).body.access_token.token;
    expect((await api.call('GET', '/v15/users', { token: grandchild })).status).toBe(200);

    const logout = await api.call('DELETE', '/v15/access_tokens', { token: session, body: {} });
    expect(logout.status).toBe(204);
    expect(logout.text).toBe('');
    for (const token of [session, child, grandchild]) {
      const after = await api.call('GET', '/v15/users', { token });
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toBe('Token realm="LevelUp"');
    }
    expect((await api.call('DELETE', '/v15/access_tokens', { token: session })).status).toBe(401);
    // The account's other sessions live on.
    expect((await api.call('GET', '/v15/users', { token: user.token })).status).toBe(200);
  });

  it('logout works for merchant and app tokens, and for a merchant and user token sent together', async () => {
    const merchant = await merchantFixture(app.app.app_id);
    const user = await userFixture(app.app.app_id);
    const both = await api.call('DELETE', '/v15/access_tokens', { authorization: `token merchant="${merchant.token}", user="${user.token}"` });
    expect(both.status).toBe(204);
    expect((await api.call('GET', '/v15/users', { token: user.token })).status).toBe(401);
    expect(
      (
        await api.call('POST', '/v15/access_tokens/downgrades', {
          token: merchant.token,
          body: { access_token: { permission_keynames: ['manage_gift_cards'] } },
        })
      ).status,
    ).toBe(401);
    const appToken = (await api.call('POST', '/v15/access_tokens', { body: { api_key: app.apiKey, client_secret: app.clientSecret } })).body.access_token.token;
    expect((await api.call('DELETE', '/v15/access_tokens', { token: appToken })).status).toBe(204);
    expect(
      (
        await api.call('POST', '/v15/apps/permissions_requests', {
          token: appToken,
          body: { permissions_request: { email: user.email, permission_keynames: ['create_orders'] } },
        })
      ).status,
    ).toBe(401);
  });

  it('a password change makes every other session 401 and keeps the one that made it', async () => {
    const user = await userFixture(app.app.app_id);
    const phone = (await logIn(user.email, user.password, '127.0.0.19')).body.access_token.token;
    const laptop = (await logIn(user.email, user.password, '127.0.0.19')).body.access_token.token;
    const handedOut = (
      await api.call('POST', '/v15/access_tokens/downgrades', { token: laptop, body: { access_token: { permission_keynames: ['read_qr_code'] } } })
    ).body.access_token.token;
    const change = await api.call('PUT', '/v15/users', { token: phone, body: { user: { password: 'a changed password' } } });
    expect(change.status).toBe(200);
    for (const token of [laptop, handedOut, user.token]) expect((await api.call('GET', '/v15/payment_token', { token })).status).toBe(401);
    expect((await api.call('GET', '/v15/users', { token: phone })).status).toBe(200);
    // A profile change without a password leaves sessions alone.
    const fresh = (await logIn(user.email, 'a changed password', '127.0.0.19')).body.access_token.token;
    expect((await api.call('PUT', '/v15/users', { token: phone, body: { user: { first_name: 'Renamed' } } })).status).toBe(200);
    expect((await api.call('GET', '/v15/users', { token: fresh })).status).toBe(200);
  });

  it('tokens carry a lifetime (the item TTL) and are refused once it has passed', async () => {
    const user = await userFixture(app.app.app_id);
    const login = (await logIn(user.email, user.password, '127.0.0.20')).body.access_token.token;
    const item = (await db().send(new GetCommand({ TableName: table(), Key: keys.token(sha256(login)) }))).Item!;
    const now = Math.floor(Date.now() / 1000);
    expect(item.ttl).toBeGreaterThan(now + TOKEN_LIFETIME_SECONDS.user - 60);
    expect(item.ttl).toBeLessThanOrEqual(now + TOKEN_LIFETIME_SECONDS.user + 1);
    const child = (
      await api.call('POST', '/v15/access_tokens/downgrades', { token: login, body: { access_token: { permission_keynames: ['read_user_basic_info'] } } })
    ).body.access_token.token;
    const childItem = (await db().send(new GetCommand({ TableName: table(), Key: keys.token(sha256(child)) }))).Item!;
    expect(childItem.ttl).toBe(item.ttl);

    // DynamoDB deletes expired items only eventually: the read checks the expiry itself.
    await setStoredAttributes(keys.token(sha256(login)), { ttl: now - 1 });
    expect((await api.call('GET', '/v15/users', { token: login })).status).toBe(401);
    expect((await api.call('GET', '/v15/users', { token: child })).status).toBe(401);
  });

  it('a token issued before lifetimes existed (no ttl) lives a lifetime from its creation', async () => {
    const user = await userFixture(app.app.app_id);
    const legacy = async (createdSecondsAgo: number) => {
      const token = randomUUID().replaceAll('-', '');
      const createdAt = new Date(Date.now() - createdSecondsAgo * 1000).toISOString();
      await db().send(
        new PutCommand({
          TableName: table(),
          Item: {
            ...keys.token(sha256(token)),
            entity: 'AccessToken',
            subject: 'user',
            user_id: user.user.user_id,
            app_id: app.app.app_id,
            permissions: ['read_user_basic_info'],
            unlimited: false,
            created_at: createdAt,
          },
        }),
      );
      return token;
    };
    expect((await api.call('GET', '/v15/users', { token: await legacy(3600) })).status).toBe(200);
    expect((await api.call('GET', '/v15/users', { token: await legacy(TOKEN_LIFETIME_SECONDS.user + 60) })).status).toBe(401);
  });
});

describe('limits and headers', () => {
  it(`card vaulting: at most ${CARD_VAULT_ATTEMPTS.limit} attempts per user per hour, then 429 with Retry-After`, async () => {
    const user = await userFixture(app.app.app_id);
    const attempt = () =>
      api.call('POST', '/v15/credit_cards', { token: user.token, body: { credit_card: { gateway_payment_nonce: SANDBOX_NONCES.invalidExpiration } } });
    for (let index = 0; index < CARD_VAULT_ATTEMPTS.limit; index++) expect((await attempt()).status).toBe(422);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Per user: another user adds a card.
    const other = await userFixture(app.app.app_id);
    const card = await api.call('POST', '/v15/credit_cards', {
      token: other.token,
      body: { credit_card: { gateway_payment_nonce: `${SANDBOX_NONCES.valid}-${randomUUID()}` } },
    });
    expect(card.status, card.text).toBe(200);
  });

  it('token, QR code and card answers say Cache-Control: no-store; every answer says nosniff', async () => {
    const user = await userFixture(app.app.app_id);
    const card = await api.call('POST', '/v15/credit_cards', {
      token: user.token,
      body: { credit_card: { gateway_payment_nonce: `${SANDBOX_NONCES.valid}-${randomUUID()}` } },
    });
    const answers: [string, Awaited<ReturnType<TestApi['call']>>][] = [
      ['login', await logIn(user.email, user.password, '127.0.0.22')],
      ['app token', await api.call('POST', '/v15/access_tokens', { body: { api_key: app.apiKey, client_secret: app.clientSecret } })],
      [
        'downgrade',
        await api.call('POST', '/v15/access_tokens/downgrades', { token: user.token, body: { access_token: { permission_keynames: ['read_qr_code'] } } }),
      ],
      ['QR code', await api.call('GET', '/v15/payment_token', { token: user.token })],
      ['QR code rotated', await api.call('POST', '/v15/payment_token/rotations', { token: user.token })],
      ['card created', card],
      ['cards', await api.call('GET', '/v15/credit_cards', { token: user.token })],
      ['card deleted', await api.call('DELETE', `/v14/credit_cards/${card.body.credit_card.id}`, { token: user.token })],
    ];
    for (const [what, response] of answers) {
      expect(response.status, `${what}: ${response.text}`).toBe(200);
      expect(response.headers.get('cache-control'), what).toBe('no-store');
      expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    const others: ApiCall[] = [{}, { token: 'f'.repeat(64) }];
    for (const options of others) {
      for (const path of ['/v15/users', '/no/such/route', '/docs', '/openapi.json']) {
        expect((await api.call('GET', path, options)).headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    }
  });

  it('a whitespace-padded Authorization header is refused as malformed by its length (the parser is bounded and linear)', async () => {
    // 8 KB: HTTP servers (Node's, API Gateway's 10 KB) refuse larger header sections before any handler runs.
    const header = `token ${' '.repeat(8 * 1024)}x`;
    expect(header.length).toBeGreaterThan(MAX_AUTHORIZATION_LENGTH);
    const response = await api.call('GET', '/v15/users', { authorization: header });
    expect(response.status).toBe(401);
    expect(response.body).toEqual([{ error: expect.objectContaining({ message: 'Authorization header is malformed.' }) }]);
    expect(response.headers.get('www-authenticate')).toBe('Token realm="LevelUp"');
  });
});

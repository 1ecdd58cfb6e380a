import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { routes, type Route } from '#shared/routes.ts';
import { useTestApi, type ApiCall } from '../support/api.ts';
import { politeCall } from '../support/fuzz.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';

const api = useTestApi();
/** Hundreds of requests from one address: wait out the local gateway's per-client limits rather than read its 429 as the route's answer. */
const call = (method: string, path: string, options: ApiCall) => politeCall(api, method, path, options);
let userToken: string;
let merchantToken: string;
let powerlessUserToken: string;
let powerlessMerchantToken: string;
let appToken: string;

beforeAll(async () => {
  const { app } = await appFixture();
  const user = await userFixture(app.app_id);
  const merchant = await merchantFixture(app.app_id);
  userToken = user.token;
  merchantToken = merchant.token;
  powerlessUserToken = await issueToken({ subject: 'user', userId: user.user.user_id, appId: app.app_id, permissions: [], unlimited: false });
  powerlessMerchantToken = await issueToken({ subject: 'merchant', merchantId: merchant.merchant.merchant_id, appId: app.app_id, permissions: [] });
  appToken = await issueToken({ subject: 'app', appId: app.app_id });
});

/** A concrete path for a route: every parameter gets a plausible value; authorization is checked before anything else. */
function pathOf(route: Route): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1'));
}

/** `app-optional` takes a valid app token and ignores any other header (its body's api_key is the credential): test/identity. */
const guarded = routes.filter((route) => route.credential !== 'none' && route.credential !== 'app-optional');

function expectUnauthorized(response: { status: number; body: unknown }) {
  expect(response.status).toBe(401);
  expect(response.body).toEqual(
    expect.arrayContaining([{ error: expect.objectContaining({ object: expect.any(String), property: expect.any(String), message: expect.any(String) }) }]),
  );
}

type Case = [name: string, route: Route];
const cases = (filter: (route: Route) => boolean): Case[] => guarded.filter(filter).map((route) => [`${route.method} ${route.path}`, route]);
const bodyFor = (route: Route) => (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});

describe('every guarded route', () => {
  it.each(cases((route) => route.credential !== 'user-optional'))('%s rejects a request without a token', async (_, route) => {
    expectUnauthorized(await call(route.method, pathOf(route), { body: bodyFor(route) }));
  });

  it.each(cases(() => true))('%s rejects an unknown token', async (_, route) => {
    expectUnauthorized(await call(route.method, pathOf(route), { body: bodyFor(route), token: 'f'.repeat(64) }));
  });

  it.each(cases(() => true))('%s rejects a malformed Authorization header', async (_, route) => {
    expectUnauthorized(await call(route.method, pathOf(route), { body: bodyFor(route), authorization: 'Bearer something' }));
  });

  /** Every token kind a route does not take: user, merchant and app tokens are not interchangeable. */
  const wrongKinds = (route: Route): string[] => {
    const accepts: readonly string[] =
      route.credential === 'merchant'
        ? ['merchant']
        : route.credential === 'app'
          ? ['app']
          : route.credential === 'merchant-or-app'
            ? ['merchant', 'app']
            : ['user'];
    return (['user', 'merchant', 'app'] as const)
      .filter((kind) => !accepts.includes(kind))
      .map((kind) => ({ user: userToken, merchant: merchantToken, app: appToken })[kind]);
  };

  it.each(cases((route) => route.credential !== 'any'))('%s rejects a token of another kind', async (_, route) => {
    for (const wrongKind of wrongKinds(route)) expectUnauthorized(await call(route.method, pathOf(route), { body: bodyFor(route), token: wrongKind }));
  });

  it.each(cases(() => true))('%s answers 401 with WWW-Authenticate (RFC 7235) and the error array', async (_, route) => {
    const response = await call(route.method, pathOf(route), { body: bodyFor(route), token: 'f'.repeat(64) });
    expectUnauthorized(response);
    expect(response.headers.get('www-authenticate')).toBe('Token realm="LevelUp"');
  });

  it.each(cases((route) => (route.permissions?.length ?? 0) > 0 || route.credential === 'user-unlimited'))(
    '%s rejects a token lacking the permission',
    async (_, route) => {
      const token = route.credential === 'merchant' ? powerlessMerchantToken : powerlessUserToken;
      expectUnauthorized(await call(route.method, pathOf(route), { body: bodyFor(route), token }));
    },
  );
});

describe('routes without credentials', () => {
  it('covers every route in the table', () => {
    expect(guarded.length + routes.filter((route) => route.credential === 'none' || route.credential === 'app-optional').length).toBe(routes.length);
  });
});

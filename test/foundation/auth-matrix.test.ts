import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { routes, type Route } from '#shared/routes.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';

let api: TestApi;
let userToken: string;
let merchantToken: string;
let powerlessUserToken: string;
let powerlessMerchantToken: string;

beforeAll(async () => {
  api = await startTestApi();
  const { app } = await appFixture();
  const user = await userFixture(app.app_id);
  const merchant = await merchantFixture(app.app_id);
  userToken = user.token;
  merchantToken = merchant.token;
  powerlessUserToken = await issueToken({ subject: 'user', userId: user.user.user_id, appId: app.app_id, permissions: [], unlimited: false });
  powerlessMerchantToken = await issueToken({ subject: 'merchant', merchantId: merchant.merchant.merchant_id, appId: app.app_id, permissions: [] });
});
afterAll(async () => {
  await api.close();
});

/** A concrete path for a route: every parameter gets a plausible value; authorization is checked before anything else. */
function pathOf(route: Route): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1'));
}

const guarded = routes.filter((route) => route.credential !== 'none');

function expectUnauthorized(response: { status: number; body: unknown }) {
  expect(response.status).toBe(401);
  expect(response.body).toEqual(
    expect.arrayContaining([{ error: expect.objectContaining({ object: expect.any(String), property: expect.any(String), message: expect.any(String) }) }]),
  );
}

describe.each(guarded.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_, route) => {
  const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};

  it.runIf(route.credential !== 'user-optional')('rejects a request without a token', async () => {
    expectUnauthorized(await api.call(route.method, pathOf(route), { body }));
  });

  it('rejects an unknown token', async () => {
    expectUnauthorized(await api.call(route.method, pathOf(route), { body, token: 'f'.repeat(64) }));
  });

  it('rejects a malformed Authorization header', async () => {
    expectUnauthorized(await api.call(route.method, pathOf(route), { body, authorization: 'Bearer something' }));
  });

  it.runIf(route.credential !== 'any')('rejects a token of the other kind', async () => {
    const wrongKind = route.credential === 'merchant' ? userToken : merchantToken;
    expectUnauthorized(await api.call(route.method, pathOf(route), { body, token: wrongKind }));
  });

  it.runIf((route.permissions?.length ?? 0) > 0 || route.credential === 'user-unlimited')('rejects a token lacking the permission', async () => {
    const token = route.credential === 'merchant' ? powerlessMerchantToken : powerlessUserToken;
    expectUnauthorized(await api.call(route.method, pathOf(route), { body, token }));
  });
});

describe('routes without credentials', () => {
  it('covers every route in the table', () => {
    expect(guarded.length + routes.filter((route) => route.credential === 'none').length).toBe(routes.length);
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll } from 'vitest';
import { createApp } from '#shared/domain/identity/apps.ts';
import { createMerchant } from '#shared/domain/merchants/merchants.ts';
import { createUser } from '#shared/domain/identity/users.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { MERCHANT_PERMISSIONS, USER_PERMISSIONS, type Permission } from '#shared/routes.ts';

/**
 * Test data made through the domain library (the same calls the admin CLI and demo seed use).
 * Call after startTestApi(), which points the library at the test's table.
 */
/** One app for the whole test file (made in beforeAll): read its `apiKey` and `appId` inside the tests. */
export function useAppFixture(): { apiKey: string; appId: number } {
  const app = { apiKey: '', appId: 0 };
  beforeAll(async () => {
    const fixture = await appFixture();
    app.apiKey = fixture.apiKey;
    app.appId = fixture.app.app_id;
  });
  return app;
}

export async function appFixture(options: { global?: boolean; merchantIds?: number[]; callbackUrl?: string } = {}) {
  return createApp({
    name: `App ${randomUUID().slice(0, 8)}`,
    global: options.global ?? true,
    merchantIds: options.merchantIds,
    callbackUrl: options.callbackUrl,
  });
}

export async function userFixture(appId: number, options: { permissions?: readonly Permission[]; unlimited?: boolean; password?: string } = {}) {
  const password = options.password ?? 'correct horse battery staple';
  const email = `user-${randomUUID()}@example.com`;
  const user = await createUser(appId, { email, first_name: 'Test', last_name: 'User', password });
  const token = await issueToken({
    subject: 'user',
    userId: user.user_id,
    appId,
    permissions: options.permissions ?? USER_PERMISSIONS,
    unlimited: options.unlimited ?? true,
  });
  return { user, token, email, password };
}

export async function merchantFixture(appId: number, options: { permissions?: readonly Permission[]; managerConfirmation?: string | null } = {}) {
  const password = 'merchant password 1';
  const username = `merchant-${randomUUID()}`;
  const merchant = await createMerchant({
    name: `Merchant ${username.slice(9, 15)}`,
    username,
    password,
    managerConfirmation: options.managerConfirmation ?? null,
  });
  const token = await issueToken({ subject: 'merchant', merchantId: merchant.merchant_id, appId, permissions: options.permissions ?? MERCHANT_PERMISSIONS });
  return { merchant, token, username, password };
}

import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';
import type { TestApi } from './api.ts';

/** Customers as the app and the POS make them: a user registered through the app API, credit the POS grants them. */

/** Who registers: their name, and how their email starts (a random part follows, so every registration is new). */
export interface Registrant {
  first_name: string;
  last_name: string;
  emailPrefix: string;
}

/** A user registered through the app API (POST /v15/users) with `phone` as typed, and a user token of theirs (it may change their profile). */
export async function registerWithPhone(api: TestApi, app: { apiKey: string; app: { app_id: number } }, phone: string | null, person: Registrant) {
  const email = `${person.emailPrefix}-${randomUUID()}@example.com`;
  const response = await api.call('POST', '/v15/users', {
    body: {
      api_key: app.apiKey,
      user: { email, first_name: person.first_name, last_name: person.last_name, password: 'correct horse battery', phone },
      permission_keynames: ['read_user_basic_info'],
    },
  });
  expect(response.status, response.text).toBe(200);
  const userId = response.body.user.id as number;
  const token = await issueToken({ subject: 'user', userId, appId: app.app.app_id, permissions: USER_PERMISSIONS, unlimited: true });
  return { email, userId, token };
}

/** Merchant-funded credit for the user with `email`, as the merchant's POS grants it (its shared login): makes them a customer. */
export async function posCredit(api: TestApi, merchantToken: string, merchantId: number, email: string, value: number): Promise<void> {
  const response = await api.call('POST', '/v15/merchant_funded_credits', {
    authorization: `token merchant="${merchantToken}"`,
    body: { merchant_funded_credit: { email, merchant_id: merchantId, value_amount: value } },
  });
  expect([200, 204], response.text).toContain(response.status);
}

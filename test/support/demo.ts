import { randomUUID } from 'node:crypto';
import type { DemoContext } from '../../scripts/demo/context.ts';
import { signInFirstOwner } from '../../scripts/demo/management.ts';
import { appFixture, merchantFixture } from './fixtures.ts';

/**
 * What an area's demo seeder needs to run alone against a fixture merchant: its first owner, added and signed in as
 * the seed does it (scripts/demo/management.ts), so the seeder's management API calls go over HTTP as in `npm start`.
 */
export async function demoOwnerSession(baseUrl: string, app: { apiKey: string }, merchantId: number): Promise<DemoContext['owner']> {
  const owner = { email: `owner-${randomUUID()}@example.com`, name: 'Demo Owner', password: 'demo owner password' };
  return signInFirstOwner({ apiUrl: baseUrl, baseUrl, apiKey: app.apiKey, merchantId, owner });
}

/** A fixture app and merchant whose first owner is signed in for a demo seeder, as `npm start` has them. */
export async function demoMerchant(baseUrl: string) {
  const fixture = await appFixture();
  const { merchant } = await merchantFixture(fixture.app.app_id);
  const owner = await demoOwnerSession(baseUrl, fixture, merchant.merchant_id);
  return { app: fixture.app, merchant, owner };
}

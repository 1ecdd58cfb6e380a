/**
 * What the management API's round-trip suites share (X-DynamoDB-Round-Trips, a count, not a timing). Each such
 * file still imports '../money/round-trips.env.ts' first: the count is switched on before any module loads.
 */
import { afterAll } from 'vitest';
import { moneyWorld } from './money.ts';
import { staffToken } from './staff.ts';

/** The DynamoDB round trips the handler made for this answer (bench mode's header). */
export function roundTrips(response: { headers: Headers }): number {
  return Number(response.headers.get('x-dynamodb-round-trips'));
}

/** Switches the count off after the file, so the worker's next file runs as the service does. */
export function countRoundTripsInThisFile(): void {
  afterAll(() => {
    delete process.env.DYNAMODB_STATS;
  });
}

/** A merchant (moneyWorld's) and its owner's staff token: where a management route's round trips are counted. */
export async function ownedMerchant() {
  const world = await moneyWorld();
  const merchantId = world.merchant.merchant.merchant_id;
  return { world, merchantId, owner: await staffToken(world.app.app_id, merchantId, 'owner') };
}

/**
 * Merchant-funded credit grants in tests: giving one through HTTP, and time passing for expiring ones
 * without a real wait (a test that slept until a short grant expired depended on the machine's speed).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { queryAll, readItems } from '#shared/db/reads.ts';
import type { CreditGrantEntry } from '#shared/domain/money/credit.ts';
import { creditAccountKey } from '#shared/domain/money/ledger.ts';
import { isoSeconds } from '#shared/time.ts';
import type { TestApi } from './api.ts';
import type { OrderWorld } from './money.ts';

export function grantCredit(api: TestApi, world: OrderWorld, fields: { value_amount: number; duration_in_seconds?: number }) {
  return api.call('POST', '/v15/merchant_funded_credits', {
    authorization: `token merchant="${world.merchant.token}"`,
    body: {
      merchant_funded_credit: { email: world.user.email, merchant_id: world.merchant.merchant.merchant_id, message: 'Thanks', global: false, ...fields },
    },
  });
}

/** The user's open grants at the merchant, earliest expiry first. */
export async function openGrants(world: OrderWorld): Promise<CreditGrantEntry[]> {
  const [item] = await readItems([keys.creditGrants(world.user.user.user_id, world.merchant.merchant.merchant_id)], { consistent: true });
  return ((item?.grants ?? []) as CreditGrantEntry[]).toSorted((a, b) => a.expires_at.localeCompare(b.expires_at));
}

/**
 * The time passed grants are moved to: a clock an hour behind that every pass moves a minute on, so each
 * pass's expiries are due, and later than those of every earlier pass (two passes within one real second
 * would otherwise give two grants the same expiry, and which one a spend drew from would be a coin toss).
 */
const pastClock = { start: Date.now() - 3600_000, passes: 0 };

/**
 * Time passing for the `count` earliest-expiring open grants (all by default): their stored expiry moves
 * into the past, in the order they had (a second apart); the others keep theirs.
 */
export async function passGrantExpiry(world: OrderWorld, count = Number.POSITIVE_INFINITY): Promise<void> {
  const grants = await openGrants(world);
  const passing = Math.min(count, grants.length);
  const at = pastClock.start + ++pastClock.passes * 60_000;
  const moved = grants.map((grant, index) => (index < passing ? { ...grant, expires_at: isoSeconds(new Date(at + index * 1000)) } : grant));
  const next = moved.map((grant) => grant.expires_at).sort()[0] ?? null;
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.creditGrants(world.user.user.user_id, world.merchant.merchant.merchant_id),
      UpdateExpression: 'SET grants = :grants, next_expiry_at = :next ADD version :one',
      ExpressionAttributeValues: { ':grants': moved, ':next': next, ':one': 1 },
    }),
  );
}

/** The credit account's ledger entries (user-side legs). */
export async function creditLedger(world: OrderWorld): Promise<{ entry_id: string; kind: string; amount: number; reference: Record<string, unknown> }[]> {
  const account = creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id);
  return (await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.ledgerEntryPrefix(account).pk },
    ConsistentRead: true,
  })) as { entry_id: string; kind: string; amount: number; reference: Record<string, unknown> }[];
}

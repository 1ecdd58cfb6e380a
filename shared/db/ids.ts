import { randomInt, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailure, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';

/**
 * How many counter items a sharded kind's ids come from. One item takes at most 1,000 writes per
 * second (DynamoDB's per-partition ceiling; an item never spans partitions), so one counter would cap
 * sign-ups, cards, claims and earned rewards platform-wide there; ID_SHARDS items lift that to
 * ID_SHARDS x 1,000 per second per kind (docs/scale.md "Id counters").
 */
export const ID_SHARDS = 16;

/**
 * Every kind of integer id, and how many counter items it is drawn from.
 * - ID_SHARDS: kinds customers create (a sign-up takes a user and a payment-token id; cards,
 *   addresses, claims, earned rewards, permissions requests, tickets, orders' integer ids): their rate
 *   grows with the platform. Their ids are unique but do not follow creation order; the lists of them order by
 *   creation time (`created_at_ms`), never by id.
 * - 1: catalogue kinds that operators and merchants create (apps, merchants, locations, campaigns,
 *   menus, upsells, contribution targets, staff members), a few per day, whose id order is a contract: a stored
 *   locations Link resumes "after this id" and sees every newer location (docs/locations.md), the
 *   spend campaign a user sees is the merchant's oldest (lowest id). One counter item keeps ids in
 *   creation order, with a ceiling of 1,000 creates per second per kind that no catalogue approaches.
 */
const COUNTER_SHARDS = {
  user: ID_SHARDS,
  payment_token: ID_SHARDS,
  credit_card: ID_SHARDS,
  user_address: ID_SHARDS,
  claim: ID_SHARDS,
  earned_reward: ID_SHARDS,
  permissions_request: ID_SHARDS,
  ticket: ID_SHARDS,
  order: ID_SHARDS,
  app: 1,
  merchant: 1,
  location: 1,
  campaign: 1,
  campaign_goal: 1,
  menu: 1,
  upsell: 1,
  contribution_target: 1,
  staff: 1,
} as const satisfies Record<string, number>;

export type IdKind = keyof typeof COUNTER_SHARDS;

/** The kinds whose ids come from ID_SHARDS counter items (for the operators' migration and the tests). */
export const SHARDED_ID_KINDS = (Object.keys(COUNTER_SHARDS) as IdKind[]).filter((kind) => COUNTER_SHARDS[kind] > 1);

/** The counter item of one shard of a kind: a single-counter kind keeps its one unsharded item (keys.counter). */
export function counterKey(kind: IdKind, shard: number) {
  return COUNTER_SHARDS[kind] === 1 ? keys.counter(kind) : keys.counter(kind, shard);
}

/**
 * The id the `value`-th number of shard `shard` stands for: disjoint across shards, positive, dense
 * (16 shards x 2^27 values stay below 2^31, for clients that parse ids as 32-bit integers; value < 2^48
 * keeps it below 2^53).
 */
function idOf(kind: IdKind, value: number, shard: number): number {
  const shards = COUNTER_SHARDS[kind];
  return shards === 1 ? value : value * shards + shard;
}

/** Adds `count` to a random shard's counter of the kind; answers that shard and its new value. */
async function advance(kind: IdKind, count: number): Promise<{ shard: number; value: number }> {
  const shard = randomInt(COUNTER_SHARDS[kind]);
  const result = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: counterKey(kind, shard),
      UpdateExpression: 'ADD #value :count SET entity = :entity',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count, ':entity': 'Counter' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return { shard, value: Number(result.Attributes?.value) };
}

/**
 * Integer ids, as the contract's resources carry them: unique per kind, positive, below 2^53. One
 * round trip (an atomic ADD on one counter item; for a sharded kind one of ID_SHARDS, chosen at
 * random). The counter only hands out numbers; the entity write that uses one is what is guarded.
 */
export async function nextId(kind: IdKind): Promise<number> {
  const { shard, value } = await advance(kind, 1);
  return idOf(kind, value, shard);
}

/** `count` unused ids of a kind in one round trip (bulk seeding: the bench's histories). */
export async function reserveIds(kind: IdKind, count: number): Promise<number[]> {
  const { shard, value } = await advance(kind, count);
  return Array.from({ length: count }, (_, index) => idOf(kind, value - index, shard));
}

/**
 * Before ids were sharded, every kind had one counter item (keys.counter without a shard). A table with ids from those
 * counters must start each shard above them before the sharded code serves it, or a shard would hand
 * out an id already taken (the guarded write would then fail). Raises each shard of every sharded kind
 * to `ceil(legacy / ID_SHARDS)`, so its next id (value + 1) x ID_SHARDS + shard exceeds every legacy id.
 * Idempotent, never lowers a shard (`npm run admin -- shard-id-counters`, docs/operations.md).
 */
export async function raiseShardsAboveLegacyCounters(): Promise<Record<string, { legacy: number; floor: number }>> {
  const raised: Record<string, { legacy: number; floor: number }> = {};
  for (const kind of SHARDED_ID_KINDS) {
    const legacyItem = await db().send(new GetCommand({ TableName: table(), Key: keys.counter(kind), ConsistentRead: true }));
    const legacy = Number(legacyItem.Item?.value ?? 0);
    if (legacy === 0) continue;
    const floor = Math.ceil(legacy / ID_SHARDS);
    await Promise.all(
      Array.from({ length: ID_SHARDS }, async (_, shard) => {
        try {
          await db().send(
            new UpdateCommand({
              TableName: table(),
              Key: keys.counter(kind, shard),
              UpdateExpression: 'SET #value = :floor, entity = :entity',
              ConditionExpression: 'attribute_not_exists(#value) OR #value < :floor',
              ExpressionAttributeNames: { '#value': 'value' },
              ExpressionAttributeValues: { ':floor': floor, ':entity': 'Counter' },
            }),
          );
        } catch (error) {
          // Already at or above the floor: nothing to raise.
          if (!isConditionFailure(error)) throw error;
        }
      }),
    );
    raised[kind] = { legacy, floor };
  }
  return raised;
}

/**
 * What an item of a sharded kind keeps to be listed in creation order: its ids do not follow it.
 * `created_at_ms` is the creation instant to the millisecond (the API's `created_at` has seconds only,
 * and one client's two quick creates often share a second).
 */
export interface CreationOrdered {
  created_at: string;
  /** Absent on items written before ids were sharded: their `created_at` stands in. */
  created_at_ms?: number;
}

/** Oldest first: creation instant, then id (the tie-break of two creates in the same millisecond). */
export function byCreation<T extends CreationOrdered>(idOf: (item: T) => number): (a: T, b: T) => number {
  const instant = (item: T) => item.created_at_ms ?? Date.parse(item.created_at);
  return (a, b) => instant(a) - instant(b) || idOf(a) - idOf(b);
}

/** LevelUp-style 32 hex character uuid (clients treat it as an opaque string); needs no round trip. */
export function newUuid(): string {
  return randomUUID().replace(/-/g, '');
}

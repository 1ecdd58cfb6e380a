/**
 * Reads of more than one item: a bounded BatchGetItem (the one batch read of the code base), and every
 * page of a Query or a Scan through the SDK's own paginators.
 */
import { BatchGetCommand, GetCommand, paginateQuery, paginateScan, QueryCommand, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import type { Key } from '#shared/db/keys.ts';
import { backoff, retryTransient, TRANSIENT_ATTEMPTS } from '#shared/db/transient.ts';

export type StoredItem = Record<string, unknown>;

/** DynamoDB's BatchGetItem limit. */
const MAX_BATCH_KEYS = 100;

/**
 * A read's ProjectionExpression naming only `attributes`, each through a placeholder (`#p0`, `#p1`...) so that
 * reserved words (`name`, `kind`, `locked`...) need no thought; spread it into a Get, Query or BatchGetItem request.
 */
export function projectionOf(attributes: readonly string[]): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  return {
    ProjectionExpression: attributes.map((_, index) => `#p${index}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#p${index}`, name])),
  };
}

/**
 * Reads independent items in ONE BatchGetItem (a round trip per request instead of one per item) and
 * answers in the order of `itemKeys`, undefined where an item does not exist. `consistent` applies to
 * all of them (money checks read balances and sources consistently). Keys DynamoDB leaves unprocessed
 * (throttling) are read again after a backoff, which only then costs another round trip; after
 * TRANSIENT_ATTEMPTS such rounds the read fails rather than answer with items missing.
 * `attributes` reads only those attributes of each item (and its key): for a caller that needs a field or
 * two of large items (menus), the rest is neither sent nor unmarshalled.
 */
export async function readItems(
  itemKeys: readonly Key[],
  options: { consistent: boolean; attributes?: readonly string[] },
): Promise<(StoredItem | undefined)[]> {
  const id = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;
  const found = new Map<string, StoredItem>();
  let pending: Key[] = [...new Map(itemKeys.map((key) => [id(key), { pk: key.pk, sk: key.sk }])).values()];
  const projection = options.attributes && projectionOf(['pk', 'sk', ...options.attributes]);
  for (let round = 1; pending.length > 0; round++) {
    if (round > TRANSIENT_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${TRANSIENT_ATTEMPTS} rounds`);
    if (round > 1) await backoff(round - 1);
    const batch = pending.slice(0, MAX_BATCH_KEYS);
    const result = await retryTransient(() =>
      db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: batch, ConsistentRead: options.consistent, ...projection } } })),
    );
    for (const item of result.Responses?.[table()] ?? []) found.set(id(item), item);
    const unprocessed = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Key[];
    pending = [...unprocessed, ...pending.slice(MAX_BATCH_KEYS)];
  }
  return itemKeys.map((key) => found.get(id(key)));
}

/** Items read by key, with the keys they were read by: a read made before its keys were known for sure (a route's prefetch). */
export interface KeyedItems {
  keys: readonly Key[];
  items: readonly (StoredItem | undefined)[];
}

/** Reads `itemKeys` (one GetItem for one key, else readItems' BatchGetItem) and keeps the keys with the items. */
export async function readKeyed(itemKeys: readonly Key[], options: { consistent: boolean }): Promise<KeyedItems> {
  const [only] = itemKeys;
  const items =
    itemKeys.length === 1 && only
      ? [
          (await retryTransient(() => db().send(new GetCommand({ TableName: table(), Key: { pk: only.pk, sk: only.sk }, ConsistentRead: options.consistent }))))
            .Item,
        ]
      : await readItems(itemKeys, options);
  return { keys: itemKeys, items };
}

/** readKeyed, consistently: the money routes' prefetch and its fallback (their checks read what the last write left). */
export function readKeyedConsistently(itemKeys: readonly Key[]): Promise<KeyedItems> {
  return readKeyed(itemKeys, { consistent: true });
}

/**
 * The items of `wanted`, in its order: taken from `prefetched` when it read every one of them, else read now
 * with `read`, the reader the prefetch was made with (so both read alike). A prefetch keyed by a request that
 * turned out to name other keys, one that failed, or one that lacks a key, changes nothing but the reads made.
 */
export async function itemsOf(
  wanted: readonly Key[],
  prefetched: Promise<KeyedItems> | undefined,
  read: (itemKeys: readonly Key[]) => Promise<KeyedItems>,
): Promise<(StoredItem | undefined)[]> {
  const done = await prefetched?.catch(() => undefined);
  if (done) {
    const found = wanted.map((key) => done.keys.findIndex((other) => other.pk === key.pk && other.sk === key.sk));
    if (found.every((index) => index >= 0)) return found.map((index) => done.items[index]);
  }
  return [...(await read(wanted)).items];
}

/**
 * The Query of one index partition newest first, for a list a client pages through: below `cursor` (the index
 * sort key a previous page ended on, from its Link), else from the newest item under `skPrefix`. Spread it
 * into a QueryCommand with the read's Limit (and projection, merging its ExpressionAttributeNames).
 */
export function newestFirstQuery(index: 'gsi1' | 'gsi2', partition: { pk: string; skPrefix: string }, cursor: string | undefined) {
  return {
    TableName: table(),
    IndexName: index,
    KeyConditionExpression: cursor ? '#pk = :pk AND #sk < :cursor' : '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': `${index}pk`, '#sk': `${index}sk` },
    ExpressionAttributeValues: cursor ? { ':pk': partition.pk, ':cursor': cursor } : { ':pk': partition.pk, ':prefix': partition.skPrefix },
    ScanIndexForward: false,
  } satisfies QueryCommandInput;
}

/** The first `limit` items of an index partition under `skPrefix`, in one Query: a list no bigger than one read. */
export async function firstOfIndex(
  index: 'gsi1' | 'gsi2',
  partition: { pk: string; skPrefix: string },
  order: 'oldest-first' | 'newest-first',
  limit: number,
): Promise<StoredItem[]> {
  const query = { ...newestFirstQuery(index, partition, undefined), ScanIndexForward: order === 'oldest-first', Limit: limit };
  return (await db().send(new QueryCommand(query))).Items ?? [];
}

/** Where a page of a list in sort-key order starts: after `cursor` (the sort key a previous page's Link ended on), else the `page`th page. */
export interface KeyOrderPosition {
  cursor?: string;
  page: number;
}

/**
 * One page of `pageSize` items of a partition in sort-key order, for a management list: after `position.cursor`,
 * else the `page`th page, the pages before it read and skipped. `from` types each stored item, undefined for one the
 * list leaves out (read, never counted). Reads at most what the page and the pages it skips hold, and no more than
 * `readAtMost` items for a partition of bounded size. Each Query asks for one item more than it still needs, so a
 * row that sorts after the list's items (a merchant's own row in its catalog) never costs another round trip.
 */
export async function pageInKeyOrder<T>(
  partition: { index?: 'gsi1'; pk: string; skPrefix: string },
  position: KeyOrderPosition,
  pageSize: number,
  from: (item: StoredItem) => T | undefined,
  options: { projection?: ReturnType<typeof projectionOf>; readAtMost?: number } = {},
): Promise<T[]> {
  const skip = position.cursor ? 0 : (position.page - 1) * pageSize;
  const wanted = Math.min(skip + pageSize, options.readAtMost ?? Number.POSITIVE_INFINITY);
  const prefix = partition.index ?? '';
  const found: T[] = [];
  let startKey: StoredItem | undefined;
  do {
    const result = await retryTransient(() =>
      db().send(
        new QueryCommand({
          TableName: table(),
          IndexName: partition.index,
          KeyConditionExpression: position.cursor ? '#pk = :pk AND #sk > :cursor' : '#pk = :pk AND begins_with(#sk, :prefix)',
          ProjectionExpression: options.projection?.ProjectionExpression,
          ExpressionAttributeNames: { '#pk': `${prefix}pk`, '#sk': `${prefix}sk`, ...options.projection?.ExpressionAttributeNames },
          ExpressionAttributeValues: position.cursor
            ? { ':pk': partition.pk, ':cursor': position.cursor }
            : { ':pk': partition.pk, ':prefix': partition.skPrefix },
          Limit: wanted - found.length + 1,
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    for (const stored of result.Items ?? []) {
      const item = from(stored);
      if (item !== undefined && found.length < wanted) found.push(item);
    }
    startKey = found.length >= wanted ? undefined : result.LastEvaluatedKey;
  } while (startKey);
  return found.slice(skip, skip + pageSize);
}

/** Every item a Query returns, following LastEvaluatedKey with the SDK's own paginator. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for await (const page of paginateQuery({ client: db() }, input)) items.push(...(page.Items ?? []));
  return items;
}

/** Every item a Scan returns: for operators' tools (the audit), never a request path. */
export async function scanAll(input: ScanCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for await (const page of paginateScan({ client: db() }, input)) items.push(...(page.Items ?? []));
  return items;
}

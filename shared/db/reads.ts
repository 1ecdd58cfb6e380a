/**
 * Reads of more than one item: a bounded BatchGetItem (the one batch read of the code base), and every
 * page of a Query or a Scan through the SDK's own paginators.
 */
import { BatchGetCommand, paginateQuery, paginateScan, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
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
export async function readItems(itemKeys: readonly Key[], options: { consistent: boolean; attributes?: readonly string[] }): Promise<(StoredItem | undefined)[]> {
  const id = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;
  const found = new Map<string, StoredItem>();
  let pending: Key[] = [...new Map(itemKeys.map((key) => [id(key), { pk: key.pk, sk: key.sk }])).values()];
  const projection = options.attributes && projectionOf(['pk', 'sk', ...options.attributes]);
  for (let round = 1; pending.length > 0; round++) {
    if (round > TRANSIENT_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${TRANSIENT_ATTEMPTS} rounds`);
    if (round > 1) await backoff(round - 1);
    const batch = pending.slice(0, MAX_BATCH_KEYS);
    const result = await retryTransient(() => db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: batch, ConsistentRead: options.consistent, ...projection } } })));
    for (const item of result.Responses?.[table()] ?? []) found.set(id(item), item);
    const unprocessed = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Key[];
    pending = [...unprocessed, ...pending.slice(MAX_BATCH_KEYS)];
  }
  return itemKeys.map((key) => found.get(id(key)));
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

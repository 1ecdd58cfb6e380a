/**
 * Small helpers shared by the money modules: cent formatting, ids, and running a TransactWriteItems
 * that may be cancelled by a concurrent transaction on the same items.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons, db, table } from '#shared/db/client.ts';
import { retryTransient } from '#shared/db/transient.ts';
import type { Key } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/domain/order-effects.ts';

/** DynamoDB's transaction limit. */
export const MAX_TRANSACT_ITEMS = 100;

/** LevelUp-style 32 hex character uuid (clients treat it as an opaque string). */
export function newUuid(): string {
  return randomUUID().replace(/-/g, '');
}

export type TransactOutcome = { committed: true } | { committed: false; reasons: string[] };

function isConflict(error: unknown, reasons: string[]): boolean {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TransactionConflictException' || name === 'TransactionInProgressException') return true;
  return reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
}

/**
 * Commits one transaction. A cancellation only caused by a concurrent transaction (TransactionConflict)
 * is retried with jittered backoff, re-building the items each time (callers re-read what they guard);
 * a failed condition is returned as `{committed: false, reasons}` (one code per item, request order).
 */
export async function transactWrite(buildItems: () => Promise<TransactItem[]> | TransactItem[], attempts = 8): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    const items = await buildItems();
    if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`transaction of ${items.length} items exceeds DynamoDB's ${MAX_TRANSACT_ITEMS}`);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { committed: true };
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      const reasons = cancellationReasons(error);
      if (isConflict(error, reasons) && attempt < attempts) {
        await sleep(Math.round(Math.random() * 20 * 2 ** Math.min(attempt, 5)));
        continue;
      }
      if (name === 'TransactionCanceledException') return { committed: false, reasons };
      throw error;
    }
  }
}

type StoredItem = Record<string, unknown>;

/**
 * Reads independent items in ONE BatchGetItem (a round trip per request instead of one per item);
 * answers in the order of `itemKeys`, undefined where an item does not exist. `consistent` applies to
 * all of them (money checks read balances and sources consistently). Unprocessed keys (throttling)
 * are read again, which only then costs another round trip.
 */
export async function readItems(itemKeys: readonly Key[], consistent = true): Promise<(StoredItem | undefined)[]> {
  const id = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;
  const found = new Map<string, StoredItem>();
  let pending: Key[] = [...new Map(itemKeys.map((key) => [id(key), { pk: key.pk, sk: key.sk }])).values()];
  for (let round = 0; pending.length > 0; round++) {
    if (round > 0) await sleep(Math.min(200, 10 * 2 ** round));
    const batch = pending.slice(0, 100);
    const result = await retryTransient(() => db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: batch, ConsistentRead: consistent } } })));
    for (const item of result.Responses?.[table()] ?? []) found.set(id(item), item);
    const unprocessed = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Key[];
    pending = [...unprocessed, ...pending.slice(100)];
  }
  return itemKeys.map((key) => found.get(id(key)));
}

/**
 * Small helpers shared by the money modules: cent formatting, ids, and running a TransactWriteItems
 * that may be cancelled by a concurrent transaction on the same items.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons, db } from '#shared/db/client.ts';
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

/**
 * Writes that must hold together: TransactWriteItems, and the guarded create every new item uses.
 * Every module writes its transactions through `transactWrite`, so the conflict retry, the item limit
 * and the reading of a cancellation live here once (and anything every money transaction must carry
 * is added in one place).
 */
import { PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons, db, isConditionFailure, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { backoff, CONTENTION_BACKOFF, retryTransient } from '#shared/db/transient.ts';
import { refuseIfRequestAbandoned } from '#shared/db/request-deadline.ts';

/** One item of a TransactWriteItems request (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's transaction limit. */
export const MAX_TRANSACT_ITEMS = 100;

/** The cancellation reason of a transaction that lost to a concurrent one. */
export const TRANSACTION_CONFLICT = 'TransactionConflict';

/** True when a cancelled transaction lost only a race (no condition of its own failed): trying again may commit. */
export function lostRace(outcome: TransactOutcome): boolean {
  return !outcome.committed && outcome.reasons.includes(TRANSACTION_CONFLICT) && !outcome.reasons.includes('ConditionalCheckFailed');
}

export type TransactOutcome = { committed: true } | { committed: false; reasons: string[] };

function isConflict(error: unknown, reasons: string[], items: TransactItem[]): boolean {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TransactionConflictException' || name === 'TransactionInProgressException') return true;
  if (lostEventSequenceRace(reasons, items)) return true;
  return reasons.includes(TRANSACTION_CONFLICT) && !reasons.includes('ConditionalCheckFailed');
}

/**
 * Only event counters' guards failed (shared/db/outbox.ts): another change of the same resource committed
 * its event first. Nothing the caller guards was refused, so rebuilding (which re-reads the counter) is
 * the answer, as for a conflict.
 */
function lostEventSequenceRace(reasons: string[], items: TransactItem[]): boolean {
  const failed = reasons.flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
  return failed.length > 0 && failed.every((index) => isEventSequenceItem(items[index]));
}

/** Whether a transaction item is an event counter's guarded write (the outbox's, which imports this module). */
function isEventSequenceItem(item: TransactItem | undefined): boolean {
  const key = item?.Put?.Item ?? item?.Update?.Key;
  return key !== undefined && keys.isEventSequenceKey(key);
}

/**
 * Commits one transaction. A cancellation only caused by a concurrent transaction (TransactionConflict)
 * is retried after `CONTENTION_BACKOFF`, re-building the items each time (callers re-read what they
 * guard); a failed condition is returned as `{committed: false, reasons}` (one code per item, request
 * order). Any other error is thrown, and so is RequestAbandoned when the HTTP request was already answered
 * 503 `timeout` (shared/db/request-deadline.ts): nothing is sent then, so the client's retry meets no late commit.
 */
export async function transactWrite(buildItems: () => Promise<TransactItem[]> | TransactItem[], attempts = 8): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    const items = await buildItems();
    refuseIfRequestAbandoned();
    if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`transaction of ${items.length} items exceeds DynamoDB's ${MAX_TRANSACT_ITEMS}`);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { committed: true };
    } catch (error) {
      const name = (error as { name?: string } | null)?.name;
      const reasons = cancellationReasons(error);
      if (isConflict(error, reasons, items)) {
        if (attempt < attempts) {
          await backoff(attempt, CONTENTION_BACKOFF);
          continue;
        }
        // Still losing to concurrent writers: a lost race, never an error (callers answer 409 or try again).
        // An event counter's guard that failed (another event of the resource won) is a lost race too.
        const raced = lostEventSequenceRace(reasons, items)
          ? reasons.map((reason) => (reason === 'ConditionalCheckFailed' ? TRANSACTION_CONFLICT : reason))
          : reasons;
        return { committed: false, reasons: raced.length > 0 ? raced : [TRANSACTION_CONFLICT] };
      }
      if (name === 'TransactionCanceledException') return { committed: false, reasons };
      throw error;
    }
  }
}

/** Transaction items, each labelled with what it guards, so a cancellation names the guards that failed. */
export class LabelledItems {
  readonly items: TransactItem[] = [];
  private readonly labels: string[] = [];

  readonly add = (label: string, ...added: TransactItem[]): void => {
    for (const item of added) {
      this.items.push(item);
      this.labels.push(label);
    }
  };

  failedLabels(reasons: string[]): Set<string> {
    return new Set(this.labels.filter((_, index) => reasons[index] === 'ConditionalCheckFailed'));
  }
}

/** A Put that only creates: it fails when an item with the same key exists (every new item is written so). */
export function putNew(item: Record<string, unknown>): TransactItem {
  return { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * `putNew` on its own (one PutItem): true when this call created the item, false when its key was taken.
 * With `resend`, transient errors are retried: a re-sent write whose first answer was lost then finds its
 * own item and answers false, so only a caller whose key is fresh (a new uuid) may read false as "mine".
 */
export async function createItem(item: Record<string, unknown>, options: { resend?: boolean } = {}): Promise<boolean> {
  const send = () => db().send(new PutCommand(putNew(item).Put!));
  try {
    await (options.resend ? retryTransient(send) : send());
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

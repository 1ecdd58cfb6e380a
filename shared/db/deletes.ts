/**
 * Deleting many items by key (revoking an account's tokens): BatchWriteItem, 25 keys a request, with the
 * items DynamoDB leaves unprocessed sent again after the one backoff of shared/db/transient.ts.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import type { Key } from '#shared/db/keys.ts';
import { backoff, retryTransient, TRANSIENT_ATTEMPTS } from '#shared/db/transient.ts';

/** DynamoDB's BatchWriteItem limit. */
const MAX_BATCH_WRITES = 25;

export async function deleteItems(itemKeys: readonly Key[]): Promise<void> {
  for (let start = 0; start < itemKeys.length; start += MAX_BATCH_WRITES) {
    let pending: Record<string, unknown>[] = itemKeys
      .slice(start, start + MAX_BATCH_WRITES)
      .map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } }));
    for (let round = 1; pending.length > 0; round++) {
      if (round > TRANSIENT_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} deletes unprocessed after ${TRANSIENT_ATTEMPTS} rounds`);
      if (round > 1) await backoff(round - 1);
      const batch = pending;
      const result = await retryTransient(() => db().send(new BatchWriteCommand({ RequestItems: { [table()]: batch } })));
      pending = result.UnprocessedItems?.[table()] ?? [];
    }
  }
}

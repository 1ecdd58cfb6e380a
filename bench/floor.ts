/**
 * The floor: what one bare DynamoDB Local round trip costs from Node, through the same document
 * client the handlers use (shared/db/client.ts, with the same stats middleware on), at the same
 * concurrency as the endpoint runs. An endpoint's overhead ratio divides by this.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { withDbStats } from '#shared/db/stats.ts';
import { keys } from '#shared/db/keys.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { hashPassword, sha256 } from '#shared/auth/secrets.ts';
import { closedLoop, type LatencySummary, type RunLimit } from './measure.ts';

export interface FloorResult {
  operation: 'GetItem' | 'TransactWriteItems' | 'PasswordHash';
  concurrency: number;
  summary: LatencySummary;
  capacityUnits: number;
  errors: number;
}

/** One bare GetItem (a token item, what every authenticated request reads first). */
export async function getItemFloor(token: string, concurrency: number, limit: RunLimit): Promise<FloorResult> {
  const key = keys.token(sha256(token));
  let capacity = 0;
  const run = await closedLoop(concurrency, limit, async () => {
    const { stats } = await withDbStats(() => db().send(new GetCommand({ TableName: table(), Key: key })));
    capacity = stats.capacityUnits;
  });
  return { operation: 'GetItem', concurrency, summary: run.summary, capacityUnits: capacity, errors: run.errors };
}

/**
 * One bare TransactWriteItems shaped like the smallest money write: a guarded balance update and a
 * new ledger-style entry written once. Each worker has its own balance, so workers never conflict.
 * `items` > 2 adds more new entries: a bare transaction of an endpoint's own size (DynamoDB Local's
 * time per transaction grows with its items, so a ten-item transaction is priced as one).
 */
export async function transactWriteFloor(runId: string, concurrency: number, limit: RunLimit, items = 2): Promise<FloorResult> {
  let capacity = 0;
  // Fresh items for every measurement: a repeated entry id would fail its condition, not measure a write.
  const measurement = randomUUID().slice(0, 8);
  const run = await closedLoop(concurrency, limit, async (worker, sequence) => {
    const account = `bench-floor:${runId}:${measurement}:${worker}`;
    const { result, stats } = await withDbStats(() =>
      // One attempt: the floor measures a transaction that commits first time, never a retried one.
      transactWrite(
        () => [
          {
            Update: {
              TableName: table(),
              Key: keys.balance(account),
              UpdateExpression: 'ADD balance :amount, version :one SET entity = :entity',
              ConditionExpression: 'attribute_not_exists(balance) OR balance >= :zero',
              ExpressionAttributeValues: { ':amount': 1, ':one': 1, ':zero': 0, ':entity': 'BenchFloor' },
            },
          },
          ...Array.from({ length: Math.max(1, items - 1) }, (_, entry) => putNew({ ...keys.ledgerEntry(account, `floor:${sequence}:${entry}`), entity: 'BenchFloor', amount: 1 })),
        ],
        1,
      ),
    );
    if (!result.committed) throw new Error(`the floor transaction was cancelled: ${result.reasons.join(',')}`);
    capacity = stats.capacityUnits;
  });
  if (run.errors > 0) throw new Error(`the TransactWriteItems floor failed ${run.errors} times: ${run.firstError}`);
  return { operation: 'TransactWriteItems', concurrency, summary: run.summary, capacityUnits: capacity, errors: run.errors };
}

/**
 * One bare password hash with the handlers' own parameters (shared/auth/secrets.ts: scrypt, the same
 * N, r, p and key length a login verifies with): the work a login does by design, priced into its floor
 * the way a transaction is priced at its size. Its cost is the hash's, never weakened to flatter a ratio.
 */
export async function passwordHashFloor(concurrency: number, limit: RunLimit): Promise<FloorResult> {
  const run = await closedLoop(concurrency, limit, async () => {
    await hashPassword('bench floor password');
  });
  if (run.errors > 0) throw new Error(`the password hash floor failed ${run.errors} times: ${run.firstError}`);
  return { operation: 'PasswordHash', concurrency, summary: run.summary, capacityUnits: 0, errors: run.errors };
}

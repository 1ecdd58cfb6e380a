/**
 * The floor: what one bare DynamoDB Local round trip costs from Node, through the same document
 * client the handlers use (shared/db/client.ts, with the same stats middleware on), at the same
 * concurrency as the endpoint runs. An endpoint's overhead ratio divides by this.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { readItems } from '#shared/db/reads.ts';
import { awsClientConfigFor } from '#shared/env.ts';
import { db, table } from '#shared/db/client.ts';
import { withDbStats } from '#shared/db/stats.ts';
import { keys } from '#shared/db/keys.ts';
import { putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { hashPassword, sha256 } from '#shared/auth/secrets.ts';
import { closedLoop, round, type LatencySummary, type RunLimit } from '../harness/measure.ts';
import { itemBytes, itemsPerCall, returnedItems, type FloorShape, type ShapedRead } from './read-shape.ts';

export interface FloorResult {
  operation: 'GetItem' | 'TransactWriteItems' | 'UpdateItem' | 'StartExecution' | 'PasswordHash' | ShapedRead;
  concurrency: number;
  /** A shaped read's floor: the items each bare call returned, their mean JSON bytes and attributes (as measured). */
  shape?: FloorShape;
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

/** The JSON bytes of a transaction's items as the handler gives them to the document client (X-Bench-Transact-Bytes sums them). */
export const transactionBytes = (items: readonly unknown[]): number => JSON.stringify(items).length;

/** What a `padding` attribute adds to an entry's JSON beside its value: `,"padding":""`. */
const PADDING_ATTRIBUTE_BYTES = ',"padding":""'.length;

/**
 * The padding (characters) of each new entry of a bare transaction whose unpadded items are `bare`, so that its items
 * weigh `targetBytes` (the endpoint's transactions' mean, X-Bench-Transact-Bytes): the bytes beyond the bare ones are
 * spread over the entries (every item but the first, the guarded update). No target, or a target the bare transaction
 * already reaches: no padding, the bare transaction as before.
 */
export function transactionEntryPaddings(bare: readonly unknown[], targetBytes?: number): number[] {
  const entries = Math.max(1, bare.length - 1);
  const missing = targetBytes === undefined ? 0 : Math.round(targetBytes) - transactionBytes(bare);
  const perEntry = Math.floor(missing / entries) - PADDING_ATTRIBUTE_BYTES;
  if (perEntry <= 0) return Array.from({ length: entries }, () => 0);
  const left = missing - entries * (perEntry + PADDING_ATTRIBUTE_BYTES);
  return Array.from({ length: entries }, (_, entry) => perEntry + (entry < left ? 1 : 0));
}

/** The floor's transaction: a guarded balance update and `paddings.length` new entries, each with its padding (if any). */
export function floorTransaction(account: string, sequence: number, paddings: readonly number[]): TransactItem[] {
  return [
    {
      Update: {
        TableName: table(),
        Key: keys.balance(account),
        UpdateExpression: 'ADD balance :amount, version :one SET entity = :entity',
        ConditionExpression: 'attribute_not_exists(balance) OR balance >= :zero',
        ExpressionAttributeValues: { ':amount': 1, ':one': 1, ':zero': 0, ':entity': 'BenchFloor' },
      },
    },
    ...paddings.map((padding, entry) =>
      putNew({
        ...keys.ledgerEntry(account, `floor:${sequence}:${entry}`),
        entity: 'BenchFloor',
        amount: 1,
        ...(padding > 0 ? { padding: 'x'.repeat(padding) } : {}),
      }),
    ),
  ];
}

/**
 * One bare TransactWriteItems shaped like the smallest money write: a guarded balance update and a
 * new ledger-style entry written once. Each worker has its own balance, so workers never conflict.
 * `items` > 2 adds more new entries: a bare transaction of an endpoint's own size (DynamoDB Local's
 * time per transaction grows with its items, so a ten-item transaction is priced as one). `bytes` (the
 * endpoint's JSON bytes per transaction) pads the entries to the same weight: a transaction writing a location of
 * ~40 attributes and a stored answer of the same size is priced as one carrying as many bytes, not as tiny items.
 */
export async function transactWriteFloor(runId: string, concurrency: number, limit: RunLimit, items = 2, bytes?: number): Promise<FloorResult> {
  let capacity = 0;
  // Fresh items for every measurement: a repeated entry id would fail its condition, not measure a write.
  const measurement = randomUUID().slice(0, 8);
  const entries = Math.max(1, items - 1);
  const account = (worker: number) => `bench-floor:${runId}:${measurement}:${worker}`;
  const paddings = transactionEntryPaddings(
    floorTransaction(
      account(0),
      0,
      Array.from({ length: entries }, () => 0),
    ),
    bytes,
  );
  const run = await closedLoop(concurrency, limit, async (worker, sequence) => {
    const { result, stats } = await withDbStats(() =>
      // One attempt: the floor measures a transaction that commits first time, never a retried one.
      transactWrite(() => floorTransaction(account(worker), sequence, paddings), 1),
    );
    if (!result.committed) throw new Error(`the floor transaction was cancelled: ${result.reasons.join(',')}`);
    capacity = stats.capacityUnits;
  });
  if (run.errors > 0) throw new Error(`the TransactWriteItems floor failed ${run.errors} times: ${run.firstError}`);
  return { operation: 'TransactWriteItems', concurrency, summary: run.summary, capacityUnits: capacity, errors: run.errors };
}

/**
 * One bare conditional UpdateItem (a guarded counter on an item of the worker's own, created by the first
 * call): what a single-item write (PutItem, UpdateItem, DeleteItem) costs DynamoDB Local, which takes
 * clearly longer for a conditional write than for a GetItem (the database's work, not the handler's).
 */
export async function singleWriteFloor(runId: string, concurrency: number, limit: RunLimit): Promise<FloorResult> {
  let capacity = 0;
  const measurement = randomUUID().slice(0, 8);
  const run = await closedLoop(concurrency, limit, async (worker) => {
    const { stats } = await withDbStats(() =>
      db().send(
        new UpdateCommand({
          TableName: table(),
          Key: keys.balance(`bench-floor-write:${runId}:${measurement}:${worker}`),
          UpdateExpression: 'ADD balance :amount, version :one SET entity = :entity',
          ConditionExpression: 'attribute_not_exists(balance) OR balance >= :zero',
          ExpressionAttributeValues: { ':amount': 1, ':one': 1, ':zero': 0, ':entity': 'BenchFloor' },
        }),
      ),
    );
    capacity = stats.capacityUnits;
  });
  if (run.errors > 0) throw new Error(`the UpdateItem floor failed ${run.errors} times: ${run.firstError}`);
  return { operation: 'UpdateItem', concurrency, summary: run.summary, capacityUnits: capacity, errors: run.errors };
}

/** A StartExecution request as a route made it (bench/harness/server.ts samples one per request). */
export interface StartExecutionSample {
  stateMachineArn: string;
  name: string;
  input: string;
}

/**
 * One bare StartExecution to the local workflow service, through an SFN client built as the routes'
 * (shared/workflows/executions.ts: same configuration, logger middleware removed). It repeats a request the
 * endpoint's warm-up made while the bench holds the executions: Step Functions answers a repeat of a
 * running STANDARD execution (same name, same input) exactly as the first, so the floor's calls make the
 * same request and answer, start no execution and touch no data. Only valid while the executions are held.
 */
export async function startExecutionFloor(endpoint: string, sample: StartExecutionSample, concurrency: number, limit: RunLimit): Promise<FloorResult> {
  const sfn = new SFNClient(awsClientConfigFor(endpoint));
  sfn.middlewareStack.remove('loggerMiddleware');
  try {
    const start = () => sfn.send(new StartExecutionCommand(sample));
    for (let warmup = 0; warmup < 5; warmup += 1) await start();
    const run = await closedLoop(concurrency, limit, async () => {
      await start();
    });
    if (run.errors > 0) throw new Error(`the StartExecution floor failed ${run.errors} times: ${run.firstError}`);
    return { operation: 'StartExecution', concurrency, summary: run.summary, capacityUnits: 0, errors: run.errors };
  } finally {
    sfn.destroy();
  }
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

/** The floor partitions seeded in this process, by shape: each is written once and read by every later floor of that shape. */
const seededShapes = new Map<string, Promise<{ pk: string; keys: { pk: string; sk: string }[]; bytesPerItem: number }>>();

/**
 * `shape.items` items of `shape.attributesPerItem` top-level attributes and about `shape.bytesPerItem`
 * JSON bytes each (bench/floors/read-shape.ts measures them the same way on the handlers' reads), in one
 * partition of their own.
 */
function floorPartition(runId: string, shape: FloorShape) {
  const name = `${shape.items}x${shape.bytesPerItem}x${shape.attributesPerItem}`;
  let seeded = seededShapes.get(name);
  if (!seeded) {
    seeded = (async () => {
      const fields = shape.attributesPerItem - 2;
      const items = Array.from({ length: shape.items }, (_, index) => {
        const item: Record<string, string> = { ...keys.benchFloorRead(`${runId}:${name}`, index) };
        for (let field = 0; field < fields; field += 1) item[`f${field}`] = '';
        const padding = Math.max(0, shape.bytesPerItem - itemBytes(item));
        for (let field = 0; field < fields; field += 1) item[`f${field}`] = 'x'.repeat(Math.floor(padding / fields) + (field < padding % fields ? 1 : 0));
        return item;
      });
      for (let start = 0; start < items.length; start += 25) {
        let requests: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
          [table()]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
        };
        while (requests && Object.keys(requests).length > 0) {
          const written = await db().send(new BatchWriteCommand({ RequestItems: requests }));
          requests = written.UnprocessedItems as typeof requests;
        }
      }
      return {
        pk: items[0]!.pk!,
        keys: items.map(({ pk: itemPk, sk }) => ({ pk: itemPk!, sk: sk! })),
        bytesPerItem: round(items.reduce((sum, item) => sum + itemBytes(item), 0) / items.length, 0),
      };
    })();
    seededShapes.set(name, seeded);
  }
  return seeded;
}

/**
 * One bare read shaped like an endpoint's multi-item reads: a Query of a floor partition that returns
 * all its `shape.items` items, or a BatchGetItem of them by key (at most 100, BatchGetItem's limit);
 * `shape.parallelCalls` of them at once (Promise.all) when the handler issues its reads in parallel,
 * the latency being the group's. DynamoDB Local's time per read grows with the items it returns, as a
 * transaction's with its items.
 */
export async function shapedReadFloor(runId: string, operation: ShapedRead, shape: FloorShape, concurrency: number, limit: RunLimit): Promise<FloorResult> {
  const partition = await floorPartition(runId, operation === 'BatchGetItem' ? { ...shape, items: Math.min(100, shape.items) } : shape);
  const read: () => Promise<unknown> =
    operation === 'Query'
      ? () => db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition.pk } }))
      : // The handlers' own batch read (one BatchGetItem of up to 100 keys); it answers the items, not the output.
        async () => ({ Responses: { [table()]: (await readItems(partition.keys, { consistent: false })).filter((item) => item !== undefined) } });
  // A few untimed groups first: the first reads of a fresh partition (and of a code path new to the JIT) are slower.
  let first: unknown;
  for (let warmup = 0; warmup < 5; warmup += 1) [first] = await Promise.all(Array.from({ length: shape.parallelCalls }, read));
  const perCall = itemsPerCall(operation, first, partition.keys.length);
  let capacity = 0;
  const run = await closedLoop(concurrency, limit, async () => {
    const { result, stats } = await withDbStats(() => Promise.all(Array.from({ length: shape.parallelCalls }, read)));
    for (const output of result) {
      const returned = returnedItems(operation, output).length;
      if (returned !== perCall) throw new Error(`the ${operation} floor returned ${returned} of ${perCall} items`);
    }
    capacity = stats.capacityUnits;
  });
  if (run.errors > 0) throw new Error(`the ${operation} floor failed ${run.errors} times: ${run.firstError}`);
  return {
    operation,
    concurrency,
    shape: { ...shape, items: perCall, bytesPerItem: partition.bytesPerItem },
    summary: run.summary,
    capacityUnits: capacity,
    errors: run.errors,
  };
}

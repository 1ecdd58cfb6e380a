/**
 * A function's COLD TWIN (bench/cold-start/cold-start.ts): a second, per-function cold-start baseline. The twin is a process
 * bundled exactly like the one-GetItem baseline (the functions' esbuild options, the same db() client of
 * shared/db/client.ts; bench/cold-start/cold-twin-handler.ts) whose first request makes the DynamoDB calls the function's
 * probe made on its first request, in the same round: each a new command of the class the function sent, with its
 * input as the function gave it, in order, the calls that were in flight together sent together (the groups of
 * bench/floors/twin.ts's CallRecorder). The probe process records them (bench/cold-start/cold-start-probe.mjs, every probe alike)
 * and this module turns a function's recording into its twin's.
 *
 * Writes. A write replayed against the table the function just wrote is not the same call: its condition now
 * fails (a put of a new id, a version check), or, unconditional or guarded only by a balance, it would write again
 * (a second debit, a counter bumped twice) and change what the next probes see. So a twin's writes (PutItem,
 * UpdateItem, DeleteItem, TransactWriteItems, BatchWriteItem) go, with their input otherwise exact, to a scratch
 * table of the same definition (`<table>-cold-twin`, never read by a function), which holds a copy of the items
 * they touch as they were before the round (copyPreState, run at the start of the round, before any probe): the
 * twin's write then meets the state the function's met and does the same work (a ten-item transaction commits
 * its ten items and their index entries), and the world is never changed by a twin. Where an earlier function
 * in the same round changed such an item first (the copy is taken before the round), the twin's condition can
 * fail where the function's held: the twin then pays a cancelled call, the same round trip and SDK work, a
 * little less of DynamoDB Local's; the twin is then at most the function's floor, never above it, so its ratio
 * never flatters the function. Reads (GetItem, Query, BatchGetItem, Scan, TransactGetItems) go to the real table,
 * exactly as recorded. A call that fails in the twin is its round trip all the same (the twin does not stop).
 *
 * Not replayed: what the function does outside DynamoDB (the sandbox card charge, SES email, Step Functions):
 * that stays the function's own cost.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createTableInput, PARTITION_KEY, SORT_KEY } from '#shared/db/table-definition.ts';
import { ensureTable } from '../../scripts/local/table.ts';

/** One call as the probe recorded it: the document client command's class name, the operation it makes, its input. */
export interface ProbeCall {
  command: string;
  operation: string;
  input: Record<string, unknown>;
  /** The name of the error the call failed with (ConditionalCheckFailedException, TransactionCanceledException...). */
  error?: string;
  /** Recorded by the probe since 2026-11-24: the call's time (send to settled), the SDK's attempts and its total retry delay ($metadata). */
  ms?: number;
  /** performance.now() in the probe process when the call was sent. */
  startMs?: number;
  attempts?: number;
  retryDelayMs?: number;
}
/** A first request's calls, in groups (bench/floors/twin.ts CallRecording): a group's calls were in flight together. */
export type ProbeRecording = ProbeCall[][];

/** The operations a twin sends to the scratch table. */
export const WRITE_OPERATIONS: ReadonlySet<string> = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

/** The scratch table of a table's twins. */
export function scratchTableName(table: string): string {
  return `${table}-cold-twin`;
}

/**
 * The scratch table's definition: the table's keys and indexes, without its stream. DynamoDB Local makes every
 * write to a second streamed table slow once the first holds many items (measured, bench/notes.md 2026-11-24:
 * with 20,000 items in the world's table, an eight-item transaction took 165-1,002 ms on a streamed scratch table
 * against 7-47 on the world's, 10-195 on a scratch table without a stream), which is what made the write twins
 * wait seconds in the full runs only (the full run's table holds its load phases and history). Without its stream
 * the twin's write does a little less than the function's (no stream record), so the twin stays a floor.
 */
export function scratchTableInput(scratch: string): CreateTableCommandInput {
  const { StreamSpecification: _stream, ...input } = createTableInput(scratch);
  return input;
}

/** Creates the scratch table (scratchTableInput) unless it exists. */
export async function ensureScratchTable(client: DynamoDBClient, scratch: string): Promise<void> {
  await ensureTable(client, scratch, scratchTableInput(scratch));
}

/** Twins are probed every TWIN_ROUND_EVERY-th round (the 2nd, 4th, ...; the only one when there is one): half the twin probes, so half the added time. */
export const TWIN_ROUND_EVERY = 2;

export function isTwinRound(run: number, runs: number): boolean {
  return runs === 1 || run % TWIN_ROUND_EVERY === TWIN_ROUND_EVERY - 1;
}

/**
 * The errors of the twin's calls whose counterpart in the function's recording (same position) succeeded: a write
 * whose condition met another state on the scratch table than the function's met in the world.
 */
export function failedOnlyInTwin(recording: ProbeRecording, twin: ProbeRecording): string[] {
  const functionCalls = recording.flat();
  return twin.flat().flatMap((call, index) => (call.error !== undefined && functionCalls[index]?.error === undefined ? [call.error] : []));
}

/** A twin's call is far slower than its function's counterpart when it took both this much longer and twice as long. */
export const TWIN_WAIT_MS = 200;

/**
 * The twin's calls that waited where their counterpart in the function's recording (same position) did not: the
 * SDK retried them (more attempts than the function's: a throttling or conflict answer, a reset connection), or
 * they took TWIN_WAIT_MS longer and twice as long. A twin's wall time is only a floor of its function's when
 * none did (the write twins' 2,960.9 ms in the full run at 298e476 had CPU in line: they waited on something).
 */
export function twinWaits(recording: ProbeRecording, twin: ProbeRecording): string[] {
  const functionCalls = recording.flat();
  return twin.flat().flatMap((call, index) => {
    const counterpart = functionCalls[index];
    const attempts = call.attempts ?? 1;
    if (attempts > (counterpart?.attempts ?? 1))
      return [`${call.operation} ${attempts} attempts, ${Math.round(call.retryDelayMs ?? 0)} ms retry delay${call.error ? `, ${call.error}` : ''}`];
    if (call.ms !== undefined && counterpart?.ms !== undefined && call.ms > counterpart.ms + TWIN_WAIT_MS && call.ms > 2 * counterpart.ms) {
      return [`${call.operation} ${Math.round(call.ms)} ms against ${Math.round(counterpart.ms)}`];
    }
    return [];
  });
}

export function readProbeRecording(file: string): ProbeRecording {
  return deserialize(readFileSync(file)) as ProbeRecording;
}

type Key = Record<string, unknown>;
type TransactItem = Partial<Record<'Put' | 'Update' | 'Delete' | 'ConditionCheck', { TableName?: string; Item?: Key; Key?: Key }>>;
type BatchWrite = { PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } };

function retarget<T extends { TableName?: string }>(part: T, from: string, to: string): T {
  return part.TableName === from ? { ...part, TableName: to } : part;
}

/**
 * The twin's recording: the function's, with every write on `table` sent to `scratch` (its TableName, a
 * transaction item's, a batch's RequestItems key; a transaction's ConditionCheck too: it checks the state the
 * transaction's other items are written against). Everything else, and every read, unchanged.
 */
export function withWritesOnScratch(recording: ProbeRecording, table: string, scratch: string): ProbeRecording {
  return recording.map((group) =>
    group.map((call) => {
      if (!WRITE_OPERATIONS.has(call.operation)) return call;
      const input = call.input;
      if (call.operation === 'TransactWriteItems') {
        const items = (input.TransactItems as TransactItem[]).map((item) =>
          Object.fromEntries(Object.entries(item).map(([kind, part]) => [kind, part && retarget(part, table, scratch)])),
        );
        return { ...call, input: { ...input, TransactItems: items } };
      }
      if (call.operation === 'BatchWriteItem') {
        const requests = Object.fromEntries(
          Object.entries(input.RequestItems as Record<string, unknown>).map(([name, writes]) => [name === table ? scratch : name, writes]),
        );
        return { ...call, input: { ...input, RequestItems: requests } };
      }
      return { ...call, input: retarget(input as { TableName?: string }, table, scratch) };
    }),
  );
}

function keyOf(item: Key): Key {
  return { [PARTITION_KEY]: item[PARTITION_KEY], [SORT_KEY]: item[SORT_KEY] };
}

/** The keys of the items the recording's writes on `table` touch (a put's item, an update's, a delete's, a condition check's), each once. */
export function keysWritten(recording: ProbeRecording, table: string): Key[] {
  const keys = new Map<string, Key>();
  const add = (key: Key) => keys.set(JSON.stringify([key[PARTITION_KEY], key[SORT_KEY]]), keyOf(key));
  for (const call of recording.flat()) {
    if (!WRITE_OPERATIONS.has(call.operation)) continue;
    const input = call.input;
    if (call.operation === 'TransactWriteItems') {
      for (const item of input.TransactItems as TransactItem[]) {
        for (const part of Object.values(item)) if (part?.TableName === table) add(part.Item ?? part.Key!);
      }
    } else if (call.operation === 'BatchWriteItem') {
      for (const write of (input.RequestItems as Record<string, BatchWrite[]>)[table] ?? []) add(write.PutRequest?.Item ?? write.DeleteRequest!.Key);
    } else if (input.TableName === table) {
      add((input.Item ?? input.Key) as Key);
    }
  }
  return [...keys.values()];
}

/**
 * Makes the scratch table hold, at each key, what the real table holds now (the item, or nothing): the state the
 * next round's writes of the same items will meet. Run at the start of a round, with the keys of the function's
 * previous recording (items it writes every time: a balance, a card, a counter; a new order's keys are new each
 * round and absent from both tables).
 */
export async function copyPreState(client: DynamoDBDocumentClient, keys: Key[], table: string, scratch: string): Promise<void> {
  for (const key of keys) {
    const { Item } = await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
    if (Item) await client.send(new PutCommand({ TableName: scratch, Item }));
    else await client.send(new DeleteCommand({ TableName: scratch, Key: key }));
  }
}

/** The twins' scratch table beside the world's `table`, as a round uses it. */
export interface ScratchTable {
  name: string;
  /** copyPreState for the keys `recording`'s writes touched: the state the next round's same writes will meet. */
  copyPreStateOf(recording: ProbeRecording): Promise<void>;
  /** Writes `recording`, its writes moved to the scratch table (withWritesOnScratch), to `file` for a twin to replay; returns it. */
  writeReplay(recording: ProbeRecording, file: string): ProbeRecording;
}

/** Makes (if missing) the scratch table beside `table` and answers how a round uses it. */
export async function scratchTableFor(client: DynamoDBClient, documents: DynamoDBDocumentClient, table: string): Promise<ScratchTable> {
  const name = scratchTableName(table);
  await ensureScratchTable(client, name);
  return {
    name,
    copyPreStateOf: (recording) => copyPreState(documents, keysWritten(recording, table), table, name),
    writeReplay(recording, file) {
      const replay = withWritesOnScratch(recording, table, name);
      writeFileSync(file, serialize(replay));
      return replay;
    },
  };
}

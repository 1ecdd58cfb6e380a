/**
 * A function's cold twin (docs/benchmarks.md "Cold start", bench/cold-start/cold-twin.ts): the cold-start probe records the
 * DynamoDB calls of the function's first request (command, input, order, which were in flight together) and the
 * twin, bundled as the baseline is, makes exactly those calls in its own first request, its writes on a scratch
 * table holding the items they touch as they were before the round, so the world never changes and a guarded
 * write meets the state the function's met.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { localClient } from '../../scripts/local/dynamodb-local.ts';
import { createTableInput } from '#shared/db/table-definition.ts';
import { esbuildOptions, twinFigures } from '../../bench/cold-start/cold-start.ts';
import {
  failedOnlyInTwin,
  isTwinRound,
  twinWaits,
  keysWritten,
  readProbeRecording,
  scratchTableFor,
  scratchTableInput,
  withWritesOnScratch,
  type ProbeRecording,
} from '../../bench/cold-start/cold-twin.ts';
import { useTestApi } from '../support/api.ts';

useTestApi();

const call = (operation: string, command: string, input: Record<string, unknown>) => ({ operation, command, input });

describe('bench cold twin: what the twin replays', () => {
  const recording: ProbeRecording = [
    [call('GetItem', 'GetCommand', { TableName: 'world', Key: { pk: 'token#1', sk: 'token' } })],
    [
      call('Query', 'QueryCommand', { TableName: 'world', KeyConditionExpression: 'pk = :pk' }),
      call('UpdateItem', 'UpdateCommand', { TableName: 'world', Key: { pk: 'user#1', sk: 'profile' }, UpdateExpression: 'SET a = :a' }),
    ],
    [
      call('TransactWriteItems', 'TransactWriteCommand', {
        TransactItems: [
          { ConditionCheck: { TableName: 'world', Key: { pk: 'card#1', sk: 'card' }, ConditionExpression: 'attribute_exists(pk)' } },
          { Update: { TableName: 'world', Key: { pk: 'balance#1', sk: 'balance' }, UpdateExpression: 'SET b = :b' } },
          { Put: { TableName: 'world', Item: { pk: 'order#9', sk: 'order', amount: 1 } } },
          { Delete: { TableName: 'world', Key: { pk: 'hold#9', sk: 'hold' } } },
          { Put: { TableName: 'elsewhere', Item: { pk: 'x', sk: 'y' } } },
        ],
      }),
    ],
    [
      call('BatchWriteItem', 'BatchWriteCommand', {
        RequestItems: { world: [{ PutRequest: { Item: { pk: 'event#1', sk: 'e', body: 'b' } } }, { DeleteRequest: { Key: { pk: 'event#0', sk: 'e' } } }] },
      }),
    ],
    [
      call('PutItem', 'PutCommand', { TableName: 'world', Item: { pk: 'order#9', sk: 'order', amount: 2 } }),
      call('DeleteItem', 'DeleteCommand', { TableName: 'world', Key: { pk: 'tmp', sk: 't' } }),
    ],
  ];

  it('sends every write on the table to the scratch table, input otherwise exact, and leaves reads and the groups as recorded', () => {
    const copy = structuredClone(recording);
    const twin = withWritesOnScratch(recording, 'world', 'scratch');
    expect(recording).toEqual(copy);
    expect(twin.map((group) => group.map((entry) => entry.command))).toEqual(recording.map((group) => group.map((entry) => entry.command)));
    expect(twin[0]).toEqual(recording[0]);
    expect(twin[1]![0]).toEqual(recording[1]![0]);
    expect(twin[1]![1]!.input).toEqual({ ...recording[1]![1]!.input, TableName: 'scratch' });
    const items = twin[2]![0]!.input.TransactItems as Record<string, { TableName: string }>[];
    expect(items.map((item) => Object.values(item)[0]!.TableName)).toEqual(['scratch', 'scratch', 'scratch', 'scratch', 'elsewhere']);
    expect(items[2]).toEqual({ Put: { TableName: 'scratch', Item: { pk: 'order#9', sk: 'order', amount: 1 } } });
    expect(twin[3]![0]!.input).toEqual({ RequestItems: { scratch: (recording[3]![0]!.input.RequestItems as Record<string, unknown>).world } });
    expect(twin[4]!.map((entry) => entry.input.TableName)).toEqual(['scratch', 'scratch']);
  });

  it('names the items the writes touch, by key, each once, and none that is only read', () => {
    expect(keysWritten(recording, 'world')).toEqual([
      { pk: 'user#1', sk: 'profile' },
      { pk: 'card#1', sk: 'card' },
      { pk: 'balance#1', sk: 'balance' },
      { pk: 'order#9', sk: 'order' },
      { pk: 'hold#9', sk: 'hold' },
      { pk: 'event#1', sk: 'e' },
      { pk: 'event#0', sk: 'e' },
      { pk: 'tmp', sk: 't' },
    ]);
    expect(keysWritten(recording.slice(0, 1), 'world')).toEqual([]);
  });

  it('defines the scratch table as the table, keys and indexes alike, without its stream', () => {
    const { StreamSpecification, ...definition } = createTableInput('world-cold-twin');
    expect(StreamSpecification?.StreamEnabled).toBe(true);
    expect(scratchTableInput('world-cold-twin')).toEqual(definition);
    expect(scratchTableInput('world-cold-twin')).not.toHaveProperty('StreamSpecification');
  });

  it('probes the twins in every second round, or in the only one', () => {
    expect(Array.from({ length: 10 }, (_, run) => run).filter((run) => isTwinRound(run, 10))).toEqual([1, 3, 5, 7, 9]);
    expect(isTwinRound(0, 1)).toBe(true);
  });

  it('takes the ratio to the twin round by round, and says when the twin did not make the function’s round trips', () => {
    const pair = (total: number, twin: number, roundTrips = 2, failedOnlyInTwin: string[] = []) => ({
      probe: { totalMs: total, totalCpuMs: total / 2, roundTrips: 2 },
      twin: { totalMs: twin, totalCpuMs: twin / 4, roundTrips, status: 200 },
      failedOnlyInTwin,
    });
    // Per round 1.5, 1.2, 2: median 1.5 (the ratio of the medians would be 500 / 400 = 1.25).
    const figures = twinFigures([pair(600, 400), pair(480, 400), pair(500, 250)]);
    expect(figures).toEqual({ figures: { twinTotalMs: 400, twinRatio: 1.5, twinCpuRatio: 3, twinRoundTrips: 2, twinRuns: 3 } });
    expect(twinFigures([pair(600, 400), pair(600, 400, 1)]).note).toBe("the twin's round trips differ from the function's in 1 of 2 rounds");
    expect(twinFigures([pair(600, 400), pair(600, 400, 2, ['TransactionCanceledException'])]).note).toBe(
      "in 1 of 2 rounds a twin's call failed where the function's succeeded (TransactionCanceledException)",
    );
    expect(twinFigures([{ ...pair(600, 3000), waitedInTwin: ['TransactWriteItems 3 attempts, 1480 ms retry delay'] }, pair(600, 400)]).note).toBe(
      "in 1 of 2 rounds a twin's call waited where the function's did not (TransactWriteItems 3 attempts, 1480 ms retry delay)",
    );
    expect(twinFigures([])).toEqual({ figures: {} });
  });

  it('names the twin’s calls that the SDK retried more than the function’s, or that took far longer', () => {
    const timed = (operation: string, ms: number, attempts = 1, retryDelayMs = 0) => ({
      ...call(operation, `${operation}Command`, {}),
      ms,
      attempts,
      retryDelayMs,
    });
    const functionCalls: ProbeRecording = [[timed('GetItem', 40)], [timed('PutItem', 10), timed('UpdateItem', 12, 2, 60)], [timed('TransactWriteItems', 45)]];
    // Same attempts, times within TWIN_WAIT_MS or under twice the function's: nothing.
    expect(
      twinWaits(functionCalls, [[timed('GetItem', 230)], [timed('PutItem', 15), timed('UpdateItem', 20, 2, 70)], [timed('TransactWriteItems', 80)]]),
    ).toEqual([]);
    expect(
      twinWaits(functionCalls, [
        [timed('GetItem', 40)],
        [timed('PutItem', 900, 3, 870), timed('UpdateItem', 12)],
        [{ ...timed('TransactWriteItems', 1300, 3, 1200), error: 'TransactionCanceledException' }],
      ]),
    ).toEqual(['PutItem 3 attempts, 870 ms retry delay', 'TransactWriteItems 3 attempts, 1200 ms retry delay, TransactionCanceledException']);
    expect(twinWaits(functionCalls, [[timed('GetItem', 40)], [timed('PutItem', 10), timed('UpdateItem', 12)], [timed('TransactWriteItems', 2500)]])).toEqual([
      'TransactWriteItems 2500 ms against 45',
    ]);
    // Recordings made before the probe timed its calls: nothing to compare.
    expect(twinWaits([[call('GetItem', 'GetCommand', {})]], [[call('GetItem', 'GetCommand', {})]])).toEqual([]);
  });

  it('names the twin’s failed calls whose counterpart in the function succeeded', () => {
    const get = call('GetItem', 'GetCommand', {});
    const write = call('TransactWriteItems', 'TransactWriteCommand', {});
    const functionCalls: ProbeRecording = [[get], [{ ...write, error: 'TransactionCanceledException' }], [write]];
    expect(failedOnlyInTwin(functionCalls, [[get], [{ ...write, error: 'TransactionCanceledException' }], [write]])).toEqual([]);
    expect(
      failedOnlyInTwin(functionCalls, [[{ ...get, error: 'ResourceNotFoundException' }], [write], [{ ...write, error: 'TransactionCanceledException' }]]),
    ).toEqual(['ResourceNotFoundException', 'TransactionCanceledException']);
  });
});

describe('bench cold twin: a function’s first request, recorded by the probe and replayed by its twin', () => {
  const PROBE = fileURLToPath(new URL('../../bench/cold-start/cold-start-probe.mjs', import.meta.url));
  const directory = join(fileURLToPath(new URL('../../bench/tmp/', import.meta.url)), `cold-twin-test-${randomUUID().slice(0, 8)}`);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  function runProbe(bundle: string, event: object, name: string): Promise<{ status: number; roundTrips: number; calls: string; recording: ProbeRecording }> {
    const eventFile = join(directory, `${name}.event.json`);
    const callsFile = join(directory, `${name}.calls.bin`);
    writeFileSync(eventFile, JSON.stringify({ requestContext: { requestId: randomUUID() }, ...event }));
    const environment = { PATH: process.env.PATH ?? '', DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!, TABLE_NAME: table(), AWS_REGION: 'local' };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [PROBE, bundle, eventFile, callsFile], { env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', () => {
        const line = stderr.split('\n').find((candidate) => candidate.startsWith('COLD-START-PROBE '));
        if (!line) return reject(new Error(stderr.slice(-600)));
        resolve({
          ...(JSON.parse(line.slice('COLD-START-PROBE '.length)) as { status: number; roundTrips: number; calls: string }),
          recording: readProbeRecording(callsFile),
        });
      });
    });
  }

  it('records the calls in their groups, and the twin makes the same ones, its guarded write committed on the scratch table only', async () => {
    mkdirSync(directory, { recursive: true });
    const entries = {
      function: fileURLToPath(new URL('../fixtures/cold-twin/recorded-function.ts', import.meta.url)),
      twin: fileURLToPath(new URL('../../bench/cold-start/cold-twin-handler.ts', import.meta.url)),
    };
    await build(esbuildOptions(entries, directory));
    const scratchTable = await scratchTableFor(localClient(process.env.DYNAMODB_ENDPOINT!), db(), table());
    const scratch = scratchTable.name;
    const pk = `cold-twin#${randomUUID()}`;
    await db().send(new PutCommand({ TableName: table(), Item: { pk, sk: 'counter', value: 0 } }));

    // A first round: the function moves the counter 0 -> 1. Before the next, the scratch table gets the items its writes touched.
    const first = await runProbe(join(directory, 'function.mjs'), { pk, entry: 'a' }, 'first');
    expect(first).toMatchObject({ status: 200, roundTrips: 4, calls: 'GetItem|Query+GetItem|TransactWriteItems' });
    await scratchTable.copyPreStateOf(first.recording);

    // The next round: the function moves it 1 -> 2 and writes entry b; its twin replays exactly that request.
    const second = await runProbe(join(directory, 'function.mjs'), { pk, entry: 'b' }, 'second');
    expect(second.recording.flat().map((entry) => entry.command)).toEqual(['GetCommand', 'QueryCommand', 'GetCommand', 'TransactWriteCommand']);
    expect(second.recording[0]![0]!.input).toEqual({ TableName: table(), Key: { pk, sk: 'counter' }, ConsistentRead: true });
    const put = (second.recording[2]![0]!.input.TransactItems as { Put?: { Item: Record<string, unknown> } }[])[1]!.Put!;
    // The input as the function built it, a Set included (the document client writes it as a string set).
    expect(put.Item).toEqual({ pk, sk: 'entry#b', tags: new Set(['a', 'b']), nested: { list: [1, 'x'] } });

    const replayFile = join(directory, 'twin.replay.bin');
    const replayed = scratchTable.writeReplay(second.recording, replayFile);
    const twin = await runProbe(join(directory, 'twin.mjs'), { recording: replayFile }, 'twin');
    expect(twin).toMatchObject({ status: 200, roundTrips: second.roundTrips, calls: second.calls });
    // The same calls (each call's time and the SDK's attempts are its own), each timed, with the SDK's attempts.
    const untimed = (recording: ProbeRecording) =>
      recording.map((group) => group.map(({ command, operation, input, error }) => ({ command, operation, input, ...(error ? { error } : {}) })));
    expect(untimed(twin.recording)).toEqual(untimed(replayed));
    for (const entry of twin.recording.flat()) expect(entry).toMatchObject({ ms: expect.any(Number), attempts: 1, retryDelayMs: 0 });
    expect(twinWaits(second.recording, twin.recording).every((wait) => !wait.includes('attempts'))).toBe(true);

    // The world as the function left it; the twin's transaction met the pre-round state on the scratch table and committed there.
    const item = (name: string, sk: string) =>
      db()
        .send(new GetCommand({ TableName: name, Key: { pk, sk }, ConsistentRead: true }))
        .then((output) => output.Item);
    expect(await item(table(), 'counter')).toMatchObject({ value: 2 });
    expect(await item(scratch, 'counter')).toMatchObject({ value: 2 });
    expect(await item(scratch, 'entry#b')).toMatchObject({ tags: new Set(['a', 'b']) });

    // Without the pre-round copy the guarded write meets another state: the first round's transaction (counter 0 -> 1)
    // replayed now is cancelled, the same round trips, its failure named.
    scratchTable.writeReplay(first.recording, replayFile);
    const staleTwin = await runProbe(join(directory, 'twin.mjs'), { recording: replayFile }, 'stale');
    expect(staleTwin).toMatchObject({ status: 200, roundTrips: first.roundTrips });
    expect(failedOnlyInTwin(first.recording, staleTwin.recording)).toEqual(['TransactionCanceledException']);
    expect(await item(scratch, 'counter')).toMatchObject({ value: 2 });
  });

  it('gives a function that makes no DynamoDB call a twin that makes none', async () => {
    mkdirSync(directory, { recursive: true });
    await build(esbuildOptions({ twin: fileURLToPath(new URL('../../bench/cold-start/cold-twin-handler.ts', import.meta.url)) }, directory));
    const replayFile = join(directory, 'empty.replay.bin');
    writeFileSync(replayFile, serialize([]));
    expect(await runProbe(join(directory, 'twin.mjs'), { recording: replayFile }, 'empty')).toMatchObject({
      status: 200,
      roundTrips: 0,
      calls: '',
      recording: [],
    });
  });
});

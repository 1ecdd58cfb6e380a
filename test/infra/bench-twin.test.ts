/**
 * A read endpoint's twin (docs/benchmarks.md "How it was measured", bench/floors/twin.ts): the bench records the calls of
 * a GET endpoint's warm-up request (command, input, order, which were in flight together) and replays exactly
 * those through the handlers' own client; its p50 is the floor of an endpoint whose calls were all reads, and
 * any write keeps the priced floor.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { floorFor, overheadFloor } from '../../bench/floors/call-prices.ts';
import { CallRecorder, describeRecording, installCallRecording, operationOf, parseRecordingDescription, replay, replayable } from '../../bench/floors/twin.ts';
import { useTestApi } from '../support/api.ts';

useTestApi();

let recording: CallRecorder | undefined;
let installed = false;
/** The bench server's recording middleware on the handlers' client; records while `recording` is set. */
function recordOnHandlersClient(): void {
  if (!installed) installCallRecording(db(), () => recording);
  installed = true;
}

describe('bench twin: recording', () => {
  it('groups the calls that were in flight together and starts a new group once none is', () => {
    const recorder = new CallRecorder();
    recorder.start('GetItem', { Key: { pk: 'token' } })();
    const query = recorder.start('Query', { KeyConditionExpression: 'pk = :pk' });
    const batch = recorder.start('BatchGetItem', { RequestItems: {} });
    query();
    // Starts while the BatchGetItem is still out: the same group (replayed at once with it).
    const page = recorder.start('Query', { ExclusiveStartKey: { pk: 'a' } });
    batch();
    page();
    recorder.start('Scan', {})();
    expect(describeRecording(recorder.groups)).toBe('GetItem|Query+BatchGetItem+Query|Scan');
    expect(parseRecordingDescription(describeRecording(recorder.groups))).toEqual([['GetItem'], ['Query', 'BatchGetItem', 'Query'], ['Scan']]);
    expect(parseRecordingDescription('')).toEqual([]);
  });

  it('keeps the input as it was when the call started, whatever the caller does with its object afterwards', () => {
    const recorder = new CallRecorder();
    const input = { TableName: 't', Key: { pk: 'a', sk: 'b' } };
    const end = recorder.start('GetItem', input);
    input.Key.sk = 'changed';
    end();
    end();
    expect(recorder.groups[0]![0]!.input).toEqual({ TableName: 't', Key: { pk: 'a', sk: 'b' } });
    // The second end() of the same call changed nothing: a later call opens a new group.
    recorder.start('GetItem', input)();
    expect(recorder.groups).toHaveLength(2);
  });

  it('names a call by the DynamoDB operation it makes, from a document client command or a plain one', () => {
    expect(
      [
        new GetCommand({ TableName: 't', Key: {} }),
        new QueryCommand({ TableName: 't' }),
        new BatchGetCommand({ RequestItems: {} }),
        new PutCommand({ TableName: 't', Item: {} }),
        new GetItemCommand({ TableName: 't', Key: {} }),
      ].map(operationOf),
    ).toEqual(['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'GetItem']);
  });

  it('replays only recordings of plain reads: any write or Step Functions call keeps the priced floor', () => {
    expect(replayable(parseRecordingDescription('GetItem|Query+BatchGetItem|Scan'))).toBe(true);
    expect(replayable(parseRecordingDescription('GetItem|UpdateItem'))).toBe(false);
    expect(replayable(parseRecordingDescription('GetItem|TransactWriteItems'))).toBe(false);
    expect(replayable(parseRecordingDescription('GetItem|PutItem+Query'))).toBe(false);
    expect(replayable(parseRecordingDescription('GetItem|StartExecution'))).toBe(false);
    expect(replayable(parseRecordingDescription(''))).toBe(false);
  });
});

describe('bench twin: record and replay through the handlers’ client', () => {
  it('records the handler’s own (unmarshalled) inputs and replays them unchanged, in the same groups', async () => {
    recordOnHandlersClient();
    const pk = `bench-twin#${randomUUID()}`;
    // Items like an endpoint's: nested maps and numbers, not flat strings.
    for (const sk of ['1', '2'])
      await db().send(
        new PutCommand({ TableName: table(), Item: { pk, sk, entity: 'BenchTwin', amount: Number(sk), nested: { list: [1, 'a'], map: { deep: true } } } }),
      );

    recording = new CallRecorder();
    const recorder = recording;
    const get = await db().send(new GetCommand({ TableName: table(), Key: { pk, sk: '1' } }));
    await Promise.all([
      db().send(new QueryCommand({ TableName: table(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } })),
      db().send(
        new BatchGetCommand({
          RequestItems: {
            [table()]: {
              Keys: [
                { pk, sk: '1' },
                { pk, sk: '2' },
              ],
            },
          },
        }),
      ),
    ]);
    // A write in the same request: recorded, and it makes the recording unreplayable.
    await db().send(new PutCommand({ TableName: table(), Item: { pk, sk: '3', entity: 'BenchTwin' } }));
    recording = undefined;
    expect(get.Item?.nested).toEqual({ list: [1, 'a'], map: { deep: true } });

    expect(describeRecording(recorder.groups)).toBe('GetItem|Query+BatchGetItem|PutItem');
    expect(replayable(recorder.groups.map((group) => group.map((call) => call.operation)))).toBe(false);
    // The document client's input as the handler built it (not DynamoDB JSON, no bench-added parameter) and its command class: what the twin sends again.
    expect(recorder.groups[0]![0]!.input).toEqual({ TableName: table(), Key: { pk, sk: '1' } });
    expect(recorder.groups.flat().map((call) => call.command)).toEqual([GetCommand, QueryCommand, BatchGetCommand, PutCommand]);

    const reads = recorder.groups.slice(0, 2);
    expect(replayable(reads.map((group) => group.map((call) => call.operation)))).toBe(true);
    const sent: { command: string; input: unknown; inFlightAtStart: number }[] = [];
    let inFlight = 0;
    const outputs: unknown[] = [];
    await replay(reads, async (command) => {
      sent.push({ command: command.constructor.name, input: command.input, inFlightAtStart: inFlight });
      inFlight += 1;
      try {
        const output = await db().send(command as QueryCommand);
        outputs.push(output);
        return output;
      } finally {
        inFlight -= 1;
      }
    });
    expect(sent.map((call) => call.command)).toEqual(['GetCommand', 'QueryCommand', 'BatchGetCommand']);
    expect(sent.map((call) => call.input)).toEqual(reads.flat().map((call) => call.input));
    // The GetItem alone, then the Query and the BatchGetItem at once, as the handler made them.
    expect(sent.map((call) => call.inFlightAtStart)).toEqual([0, 0, 1]);
    // The same reads, answered with the real items.
    expect(outputs).toHaveLength(3);
    expect((outputs[0] as { Item?: unknown }).Item).toEqual(get.Item);
  });
});

describe('bench twin: the floor it gives', () => {
  const load = { calls: { GetItem: 1, Query: 1 }, roundTrips: 2, readShapes: {} };
  const adjacent = { getItemP50: 2, baselineP50: 3 };
  const twin = { p50: 4.2, roundTrips: 2, calls: 'GetItem|Query', handlerCpuMs: 1.1, serverCpuMs: 1.3 };

  it('uses the twin’s p50 for a read endpoint whose twin made its round trips, with the priced floor beside it', () => {
    const priced = floorFor(load, adjacent);
    expect(priced).toBe(5);
    expect(overheadFloor(load, { ...adjacent, twin })).toEqual({ floorMs: 4.2, pricedFloorMs: 5, kind: 'twin' });
  });

  it('keeps the priced floor without a twin (writes, older results), when the round trips differ, or with intrinsic work', () => {
    expect(overheadFloor(load, adjacent)).toEqual({ floorMs: 5, pricedFloorMs: 5, kind: 'priced' });
    expect(overheadFloor({ ...load, roundTrips: 2.5 }, { ...adjacent, twin })).toMatchObject({ kind: 'priced' });
    expect(overheadFloor(load, { ...adjacent, twin: { ...twin, roundTrips: null } })).toMatchObject({ kind: 'priced' });
    expect(overheadFloor(load, { ...adjacent, twin, passwordHashP50: 40 }, 'passwordHash')).toMatchObject({ kind: 'priced' });
  });
});

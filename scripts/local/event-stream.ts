/**
 * The local stand-in for the event source mapping on the table's stream: reads DynamoDB Local's stream
 * (DynamoDB Local implements DynamoDB Streams) and hands each batch of records to the same function AWS
 * invokes (functions/events-stream.ts), in order per shard. A batch that fails is read again from the last
 * checkpoint, as the mapping retries; with `checkpointFile` the position survives restarts of `npm start`
 * (records older than the stream's 24 hours are gone either way).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, UpdateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { EVENT_STREAM_VIEW } from '#shared/db/table-definition.ts';

export interface LocalEventStream {
  stop(): Promise<void>;
}

interface ShardState {
  iterator?: string;
  checkpoint?: string;
  closed: boolean;
}

/** Turns the table's stream on (a table made before events existed has none). Returns the stream's ARN. */
export async function ensureStream(client: DynamoDBClient, tableName: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;
    if (table.StreamSpecification?.StreamEnabled && table.LatestStreamArn) return table.LatestStreamArn;
    if (attempt === 0) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: EVENT_STREAM_VIEW } }));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the stream of ${tableName} did not become active`);
}

export async function startLocalEventStream(options: {
  endpoint: string;
  client: DynamoDBClient;
  tableName: string;
  pollMs?: number;
  checkpointFile?: string;
}): Promise<LocalEventStream> {
  const streamArn = await ensureStream(options.client, options.tableName);
  const { streamHandler } = (await import('../../functions/events-stream.ts')) as { streamHandler: (event: DynamoDBStreamEvent) => Promise<unknown> };
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const saved: Record<string, string> =
    options.checkpointFile && existsSync(options.checkpointFile) ? JSON.parse(readFileSync(options.checkpointFile, 'utf8')) : {};
  const shards = new Map<string, ShardState>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();

  const save = () => {
    if (!options.checkpointFile) return;
    const positions = Object.fromEntries([...shards].flatMap(([id, state]) => (state.checkpoint ? [[id, state.checkpoint]] : [])));
    writeFileSync(options.checkpointFile, JSON.stringify(positions));
  };

  async function readShard(shardId: string, state: ShardState): Promise<void> {
    if (!state.iterator) {
      const position = state.checkpoint
        ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: state.checkpoint }
        : { ShardIteratorType: 'TRIM_HORIZON' as const };
      state.iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...position }))).ShardIterator;
    }
    const result = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 100 }));
    const records = result.Records ?? [];
    if (records.length > 0) {
      try {
        await streamHandler({ Records: records.map(toLambdaRecord) } as DynamoDBStreamEvent);
      } catch (error) {
        // Read the batch again next round, from the last checkpoint (the mapping's retry).
        state.iterator = undefined;
        console.error(JSON.stringify({ level: 'error', message: 'local event stream batch failed', error: (error as Error).message }));
        return;
      }
      state.checkpoint = records.at(-1)!.dynamodb!.SequenceNumber;
      save();
    }
    state.iterator = result.NextShardIterator;
    if (!state.iterator) state.closed = true;
  }

  async function poll(): Promise<void> {
    const description = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription;
    for (const shard of description?.Shards ?? []) {
      const id = shard.ShardId!;
      if (!shards.has(id)) shards.set(id, { checkpoint: saved[id], closed: false });
    }
    for (const [id, state] of shards) {
      if (state.closed || stopped) continue;
      try {
        await readShard(id, state);
      } catch (error) {
        state.iterator = undefined;
        if ((error as Error).name !== 'ExpiredIteratorException' && (error as Error).name !== 'TrimmedDataAccessException') {
          console.error(JSON.stringify({ level: 'error', message: 'local event stream read failed', error: (error as Error).message }));
        }
      }
    }
  }

  const loop = () => {
    if (stopped) return;
    round = poll()
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.pollMs ?? 200);
      });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
      streams.destroy();
    },
  };
}

/** A GetRecords record as the Lambda event carries it (the same fields; dates become epoch seconds). */
export function toLambdaRecord(record: _Record) {
  const { ApproximateCreationDateTime, ...dynamodb } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    awsRegion: 'local',
    dynamodb: { ...dynamodb, ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: ApproximateCreationDateTime.getTime() / 1000 } : {}) },
  };
}

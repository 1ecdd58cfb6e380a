/**
 * A DynamoDB call whose connection goes silent (seen with DynamoDB Local: one transaction of ~30 concurrent
 * ones unanswered until the Lambda's deadline) is abandoned after the client's request timeout and retried
 * by the SDK on a new connection (shared/db/client.ts). Here a TCP proxy in front of DynamoDB Local swallows
 * the first connection's request and never answers; every later connection is passed through.
 */
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { putNew, transactWrite } from '#shared/db/transactions.ts';
import { useTestApi } from '../support/api.ts';

const api = useTestApi();

// Short for the test, yet long enough for DynamoDB Local on a loaded machine (500 ms was not, at a load average of 12).
const REQUEST_TIMEOUT_MS = 2_000;
let proxy: Server;
const swallowed: Socket[] = [];
const opened: Socket[] = [];

beforeAll(async () => {
  const target = new URL(api.endpoint);
  proxy = createServer((client) => {
    opened.push(client);
    if (swallowed.length === 0) {
      swallowed.push(client); // reads the request, answers nothing: a connection that died silently
      client.on('data', () => {});
      client.on('error', () => {});
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  // Before the first call creates the process's client (db() is built lazily, once).
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.DYNAMODB_REQUEST_TIMEOUT_MS = String(REQUEST_TIMEOUT_MS);
});

afterAll(async () => {
  for (const socket of opened) socket.destroy(); // the SDK keeps its connections alive
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

describe('a DynamoDB call that is never answered', () => {
  it('is abandoned after the request timeout and retried on a new connection: the transaction commits once', async () => {
    const key = { pk: `PROBE#${randomUUID()}`, sk: 'ITEM' };
    // Without the timeout the call waits for as long as the connection stays open (here: the whole test).
    const outcome = await Promise.race([transactWrite(() => [putNew({ ...key, entity: 'StallProbe' })]), sleep(10 * REQUEST_TIMEOUT_MS).then(() => 'still waiting' as const)]);
    expect(outcome).toEqual({ committed: true });
    expect(swallowed).toHaveLength(1); // the first attempt really went to the silent connection
    const stored = await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
    expect(stored.Item).toMatchObject({ entity: 'StallProbe' });
  });
});

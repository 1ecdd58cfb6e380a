import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { localClient } from '../../scripts/local/dynamodb-local.ts';
import { startLocalDeliveryQueue, type LocalQueue } from '../../scripts/local/delivery-queue.ts';
import { ensureStream, startLocalEventStream, toLambdaRecord, type LocalEventStream } from '../../scripts/local/event-stream.ts';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ResolvedAddress } from '#shared/domain/events/delivery.ts';
import { useTestApi, type TestApi } from './api.ts';
import { appFixture } from './fixtures.ts';
import { nextLink } from './locations.ts';
import { orderWorld } from './money.ts';

/**
 * The event delivery path of the local stack for one test file's table: DynamoDB Local's stream read by the
 * same function AWS invokes, the local FIFO delivery queue and its consumer (scripts/local/). Start it in
 * beforeAll after the API; stop it in afterAll.
 */
export async function startEventPipeline(api: TestApi): Promise<{ queue: LocalQueue; stream: LocalEventStream; stop(): Promise<void> }> {
  const client = localClient(api.endpoint);
  const queue = await startLocalDeliveryQueue();
  const stream = await startLocalEventStream({ endpoint: api.endpoint, client, tableName: api.tableName, pollMs: 50 });
  return {
    queue,
    stream,
    async stop() {
      await stream.stop();
      await queue.stop();
      client.destroy();
    },
  };
}

/** A test file whose answers are mailed from the table's stream: its API, and the app its tests use. */
export interface MailingTestFile {
  api: TestApi;
  /** Made in the file's beforeAll, after the API and the event pipeline started. */
  app: Awaited<ReturnType<typeof appFixture>>;
}

/**
 * The API of one test file with its event pipeline (started before the file's tests, stopped after them), so
 * the mails composed after an answer (invites, reset links, permissions requests) arrive; and one app fixture.
 */
export function useMailingTestApi(): MailingTestFile {
  const api = useTestApi();
  let pipeline: Awaited<ReturnType<typeof startEventPipeline>> | undefined;
  const file = { api } as MailingTestFile;
  beforeAll(async () => {
    pipeline = await startEventPipeline(api);
    file.app = await appFixture();
  });
  afterAll(async () => {
    await pipeline?.stop();
  });
  return file;
}

/**
 * Every record the test table's stream holds so far, from the start of each shard, as the Lambda event carries
 * them: what a replay of the stream (a retried batch, a mapping restarted at TRIM_HORIZON) hands the function again.
 */
export async function tableStreamRecords(api: TestApi): Promise<ReturnType<typeof toLambdaRecord>[]> {
  const client = localClient(api.endpoint);
  const streams = new DynamoDBStreamsClient({ endpoint: api.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const streamArn = await ensureStream(client, api.tableName);
    const records: ReturnType<typeof toLambdaRecord>[] = [];
    for (const shard of (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? []) {
      let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' })))
        .ShardIterator;
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        records.push(...(page.Records ?? []).map(toLambdaRecord));
        if ((page.Records ?? []).length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    return records;
  } finally {
    streams.destroy();
    client.destroy();
  }
}

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** Epoch ms when it arrived. */
  at: number;
  /** The status this receiver answered. */
  status: number;
}

/**
 * A real webhook receiver on loopback: records every POST and answers what `answer` says (200 by default).
 * `close()` and `listen()` take it down and bring it back on the same port.
 */
export async function startReceiver() {
  const received: ReceivedDelivery[] = [];
  let answer: (delivery: Omit<ReceivedDelivery, 'status'>, index: number) => number = () => 200;
  const handle = (server: Server) =>
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const status = answer(delivery, received.length);
        received.push({ ...delivery, status });
        response.writeHead(status).end();
      });
    });
  let server = handle(createServer());
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  const url = `http://127.0.0.1:${port}/hooks`;
  return {
    url,
    received,
    /** Events (parsed bodies) received with a 2xx answer, in arrival order. */
    delivered: () =>
      received
        .filter((delivery) => delivery.status < 300)
        .map(
          (delivery) =>
            JSON.parse(delivery.body).event as {
              id: string;
              type: string;
              sequence: number;
              resource: { type: string; id: string };
              data: Record<string, unknown>;
            },
        ),
    answerWith(next: typeof answer) {
      answer = next;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async listen() {
      server = handle(createServer());
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Runs `use` with a receiver of its own, closed afterwards whatever happens. */
export async function withReceiver<T>(use: (receiver: Receiver) => Promise<T>): Promise<T> {
  const receiver = await startReceiver();
  try {
    return await use(receiver);
  } finally {
    await receiver.close();
  }
}

/** Waits until `done()` holds (polling), failing with `what` after `timeoutMs`. */
export async function waitUntil(done: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function createEndpoint(api: TestApi, token: string, url: string, events: string[]) {
  const response = await api.call('POST', '/v15/webhook_endpoints', { token, body: { webhook_endpoint: { url, events } } });
  if (response.status !== 200) throw new Error(`endpoint not created: ${response.status} ${response.text}`);
  return response.body.webhook_endpoint as { id: string; secret: string; url: string; events: string[] };
}

export const MERCHANT_EVENTS = ['order.completed', 'order.refunded', 'gift_card.value_added', 'gift_card.value_removed', 'campaign.unlocked'];

/** A listed or delivered event (the `event` of its body). */
export interface ListedEvent {
  id: string;
  type: string;
  sequence: number;
  resource: { type: string; id: string };
  data: Record<string, unknown>;
}

/** Every event the token's tenant lists with GET /v15/events (optionally of `types`), following Link to the 204. */
export async function listAllEvents(api: TestApi, token: string, types?: string): Promise<ListedEvent[]> {
  const events: ListedEvent[] = [];
  let url: string | undefined = `/v15/events${types ? `?types=${types}` : ''}`;
  while (url) {
    const page: { status: number; body: { event: ListedEvent }[]; headers: Headers } = await api.call('GET', url, { token });
    if (page.status === 204) break;
    expect(page.status).toBe(200);
    events.push(...page.body.map((item) => item.event));
    url = nextLink(page.headers);
  }
  return events;
}

/** A self-signed certificate (and its key) for `names`, made with openssl: a TLS receiver's, trusted as its own CA. */
export function selfSignedCertificate(names: readonly string[]): { cert: string; key: string } {
  const directory = mkdtempSync(join(tmpdir(), 'receiver-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${names[0]}`,
        '-addext',
        `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}`,
        '-keyout',
        join(directory, 'key.pem'),
        '-out',
        join(directory, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(join(directory, 'cert.pem'), 'utf8'), key: readFileSync(join(directory, 'key.pem'), 'utf8') };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export interface TlsDelivery {
  host: string | undefined;
  /** The TLS server name the client sent (SNI). */
  servername: string | undefined;
  signature: string;
  body: string;
}

/** An https receiver on one address and port (0: any), answering 200 and recording each POST with its Host and SNI. */
export async function startTlsReceiver(address: string, tls: { cert: string; key: string }, port = 0) {
  const received: TlsDelivery[] = [];
  const server = createHttpsServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const servername = (request.socket as TLSSocket).servername || undefined;
      received.push({
        host: request.headers.host,
        servername,
        signature: String(request.headers['levelup-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end();
    });
  });
  const listening = await new Promise<number>((resolve) => server.listen(port, address, () => resolve((server.address() as { port: number }).port)));
  return {
    port: listening,
    received,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The event pipeline and two merchants' worlds, each with a receiver behind an endpoint for the merchant events:
 * `world` is the merchant a test acts as, `other` the one that must receive nothing of it. `stop` ends them all.
 */
export async function merchantEventWorlds(api: TestApi) {
  const pipeline = await startEventPipeline(api);
  const world = await orderWorld({ card: 'valid' });
  const other = await orderWorld({ card: 'valid' });
  const receiver = await startReceiver();
  const otherReceiver = await startReceiver();
  const endpoint = await createEndpoint(api, world.merchant.token, receiver.url, MERCHANT_EVENTS);
  await createEndpoint(api, other.merchant.token, otherReceiver.url, MERCHANT_EVENTS);
  return {
    pipeline,
    world,
    other,
    receiver,
    otherReceiver,
    endpoint,
    async stop() {
      await pipeline.stop();
      await receiver.close();
      await otherReceiver.close();
    },
  };
}

/** A public IPv4 and IPv6 address the fake DNS answers with; a test reaches their stand-ins on loopback. */
export const PUBLIC_V4 = '93.184.216.34';
export const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

/** What the fake DNS answers for each name, given how many times the name was asked (the question's number). */
const FAKE_DNS_ANSWERS: Record<string, (count: number) => ResolvedAddress[]> = {
  'hooks-v4.example.com': () => [{ address: PUBLIC_V4, family: 4 }],
  'callback.example.com': () => [{ address: PUBLIC_V4, family: 4 }],
  'hooks-v6.example.com': () => [{ address: PUBLIC_V6, family: 6 }],
  // DNS rebinding: public for the first question, loopback for every later one.
  'rebind.example.com': (count) => [{ address: count === 1 ? PUBLIC_V4 : '127.0.0.1', family: 4 }],
  'loopback.example.com': () => [{ address: '127.0.0.1', family: 4 }],
  'mapped.example.com': () => [{ address: '::ffff:127.0.0.1', family: 6 }],
  'nat64.example.com': () => [{ address: '64:ff9b::7f00:1', family: 6 }],
};

/**
 * A DNS for useDeliveryNetwork that knows only `names` (each from the table above; any other is ENOTFOUND) and
 * counts the questions per name in `resolutions`.
 */
export function fakeDns(names: readonly string[]) {
  const resolutions = new Map<string, number>();
  return {
    resolutions,
    resolve: async (host: string): Promise<ResolvedAddress[]> => {
      const count = (resolutions.get(host) ?? 0) + 1;
      resolutions.set(host, count);
      const answer = names.includes(host) ? FAKE_DNS_ANSWERS[host] : undefined;
      if (!answer) throw Object.assign(new Error(`no such name ${host}`), { code: 'ENOTFOUND' });
      return answer(count);
    },
  };
}

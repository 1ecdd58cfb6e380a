import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, inject } from 'vitest';
import { localClient } from '../../scripts/local/dynamodb-local.ts';
import { ensureTable } from '../../scripts/local/table.ts';
import { LOCAL_MAIL_FROM } from '../../scripts/local/ses.ts';
import { LOCAL_IMAGES_BUCKET } from '../../scripts/local/s3.ts';
import { validateResponse } from '../openapi/response-validator.ts';
import { assertClientSizedIds } from './client-sized-ids.ts';
import { recordListedEvents } from './event-examples.ts';

export interface ApiCall {
  token?: string;
  /** A raw Authorization header value (overrides token). */
  authorization?: string;
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The loopback address to send from (127.0.0.2, ...): the API's per-client limits key on it. */
  localAddress?: string;
}

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  body: T;
}

export interface TestApi {
  baseUrl: string;
  tableName: string;
  endpoint: string;
  call<T = any>(method: string, pathOrUrl: string, options?: ApiCall): Promise<ApiResult<T>>;
  close(): Promise<void>;
}

/**
 * A fresh table in the run's DynamoDB Local and the local gateway on a free port, serving the
 * real handlers. Call once per test file (env is per worker process).
 */
export async function startTestApi(): Promise<TestApi> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${randomUUID()}`;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = tableName;
  process.env.AWS_REGION ??= 'local';
  process.env.SES_ENDPOINT = inject('sesEndpoint');
  process.env.S3_ENDPOINT = inject('s3Endpoint');
  process.env.IMAGES_BUCKET = LOCAL_IMAGES_BUCKET;
  process.env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  process.env.ALLOW_HTTP_CALLBACKS = 'true';
  const client = localClient(endpoint);
  await ensureTable(client, tableName);
  client.destroy();
  const { createGateway, listen } = await import('../../scripts/local/gateway.ts');
  const server: Server = createGateway();
  const port = await listen(server, { port: 0 });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    tableName,
    endpoint,
    async call(method, pathOrUrl, options = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
      if (options.authorization !== undefined) headers.Authorization = options.authorization;
      else if (options.token !== undefined) headers.Authorization = `token ${options.token}`;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
      const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
      const response = await send(method, url, headers, body, options.localAddress);
      if (process.env.GOLDEN_422_RECORD && response.status === 422) recordGolden422(method, url, body, response.text);
      if (process.env.EVENT_EXAMPLES_RECORD && response.status === 200) recordListedEvents(process.env.EVENT_EXAMPLES_RECORD, method, url, response.text);
      // Every response of the suite must be what the OpenAPI document says (status and body schema).
      await validateResponse(method, url, response);
      const text = response.text;
      let parsed: unknown;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      // Every integer id below 2^31, for the clients that read ids as 32-bit ints.
      assertClientSizedIds(method, url, parsed);
      return { status: response.status, headers: response.headers, text, body: parsed as any };
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The test API of one test file: `const api = useTestApi();` at the top of the file starts it before the
 * file's own hooks and tests (hooks run in the order they are declared) and closes it after them. The
 * returned object forwards to the running API, so it can be used in any hook or test.
 */
export function useTestApi(start: () => Promise<TestApi> = startTestApi): TestApi {
  let started: TestApi | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): TestApi => {
    if (!started) throw new Error('the test API starts in beforeAll: use it inside hooks and tests');
    return started;
  };
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get tableName() {
      return running().tableName;
    },
    get endpoint() {
      return running().endpoint;
    },
    call: (method, pathOrUrl, options) => running().call(method, pathOrUrl, options),
    close: () => running().close(),
  };
}

/**
 * node:http rather than fetch: fetch refuses a body on GET, and real clients (C#, Ruby) send `{}`
 * with Content-Type application/json on GET and DELETE.
 */
function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  localAddress?: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
    const req = httpRequest(url, { method, headers: outgoing, ...(localAddress ? { localAddress } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `GOLDEN_422_RECORD=<file> npx vitest run`: appends every 422 the suite receives as a JSON line, the raw
 * material of test/fixtures/golden-422.json (test/support/golden-422.ts keeps the ones validation answers).
 */
function recordGolden422(method: string, url: string, body: string | undefined, answer: string): void {
  const { pathname, search } = new URL(url);
  appendFileSync(process.env.GOLDEN_422_RECORD!, `${JSON.stringify({ method, path: pathname, search, body, answer })}\n`);
}

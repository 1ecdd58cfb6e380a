import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { inject } from 'vitest';
import { localClient } from '../../scripts/local/dynamodb-local.ts';
import { ensureTable } from '../../scripts/local/table.ts';

export interface ApiCall {
  token?: string;
  /** A raw Authorization header value (overrides token). */
  authorization?: string;
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
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
      const response = await fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${baseUrl}${pathOrUrl}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      return { status: response.status, headers: response.headers, text, body: parsed as any };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

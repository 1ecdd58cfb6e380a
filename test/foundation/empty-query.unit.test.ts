import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { contextWithRemaining, publicPostEvent } from '../support/lambda-invocation.ts';

/**
 * A request without a query string: the pipeline keeps a query schema's answer to `{}` per process
 * (shared/http/inputs.ts, parseQuery). Each request must still get exactly what parsing `{}` gives, as a
 * copy of its own, and a schema that refuses `{}` must keep refusing it.
 */
const invoke = async (handler: ReturnType<typeof apiHandler>, query?: Record<string, string>) => {
  const event = { ...publicPostEvent('empty-query'), ...(query ? { queryStringParameters: query } : {}) };
  const response = await handler(event, contextWithRemaining(5_000, 'empty-query'));
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as unknown };
};

describe('a request without a query string', () => {
  it("gets the schema's parse of an empty query, a copy of its own on every request", async () => {
    const query = z.object({ page: z.string().optional(), limit: z.string().default('20').transform(Number) });
    const seen: object[] = [];
    const handler = apiHandler('users-create', { query }, async (request) => {
      seen.push(request.query);
      const answer = { ...request.query };
      (request.query as Record<string, unknown>).limit = 999;
      return ok(answer);
    });
    for (let index = 0; index < 3; index++) expect(await invoke(handler)).toEqual({ status: 200, body: { limit: 20 } });
    expect(seen[0]).not.toBe(seen[1]);
    expect(await invoke(handler, {})).toEqual({ status: 200, body: { limit: 20 } });
    expect(await invoke(handler, { limit: '5' })).toEqual({ status: 200, body: { limit: 5 } });
  });

  it('gets a new object or array from a default every time', async () => {
    const query = z.object({ tags: z.array(z.string()).default(() => []) });
    const handler = apiHandler('users-create', { query }, async (request) => {
      const tags = request.query.tags;
      tags.push('mutated');
      return ok({ tags });
    });
    expect(await invoke(handler)).toEqual({ status: 200, body: { tags: ['mutated'] } });
    expect(await invoke(handler)).toEqual({ status: 200, body: { tags: ['mutated'] } });
  });

  it('is refused every time by a schema that requires a parameter', async () => {
    const handler = apiHandler('users-create', { query: z.object({ q: z.string() }) }, async () => ok({}));
    for (let index = 0; index < 2; index++) {
      const { status, body } = await invoke(handler);
      expect(status).toBe(422);
      expect(body).toEqual([{ error: expect.objectContaining({ object: 'request', property: 'q', code: 'missing' }) }]);
    }
  });
});

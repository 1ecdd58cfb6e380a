import { describe, expect, it } from 'vitest';
import { apiHandler } from '#shared/http/handler.ts';
import { contextWithRemaining as contextOf, publicPostEvent } from '../support/lambda-invocation.ts';

const REQUEST_ID = 'timeout-test';
const event = publicPostEvent(REQUEST_ID);
const contextWithRemaining = (milliseconds: number) => contextOf(milliseconds, REQUEST_ID);

describe('a request that outlives its Lambda timeout', () => {
  it('answers 503 with Retry-After and the timeout code, never a 500, while the work may still finish', async () => {
    let finish!: () => void;
    const work = new Promise<void>((resolve) => (finish = resolve));
    const handler = apiHandler('users-create', {}, async () => {
      await work;
      return { status: 200, body: {} };
    });
    const response = await handler(event, contextWithRemaining(60));
    finish();
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(JSON.parse(response.body ?? '')).toEqual([{ error: expect.objectContaining({ object: 'request', property: 'base', code: 'timeout' }) }]);
  });

  it('answers normally when the work finishes in time', async () => {
    const handler = apiHandler('users-create', {}, async () => ({ status: 200, body: { ok: true } }));
    const response = await handler(event, contextWithRemaining(5_000));
    expect(response.statusCode).toBe(200);
  });
});

import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiHandler } from '#shared/http/handler.ts';

/** The smallest event the pipeline reads: a POST with no body and no credential (users-create is public). */
const event = {
  rawPath: '/v14/users',
  headers: { host: 'localhost' },
  requestContext: { requestId: 'timeout-test', http: { method: 'POST', path: '/v14/users', sourceIp: '127.0.0.1' } },
} as unknown as APIGatewayProxyEventV2;

function contextWithRemaining(milliseconds: number): Context {
  const deadline = Date.now() + milliseconds;
  return { awsRequestId: 'timeout-test', functionName: 'users-create', getRemainingTimeInMillis: () => deadline - Date.now() } as unknown as Context;
}

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

import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { createGateway, listen } from '../../scripts/local/gateway.ts';

const api = useTestApi();

describe('local gateway', () => {
  it('answers an unknown route with 404 in the error format and a request id', async () => {
    const response = await api.call('GET', '/v15/nothing/here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'request', property: 'path', code: 'not_found' }) }]);
    expect(response.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await api.call('DELETE', '/v14/users');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.body[0].error.code).toBe('method_not_allowed');
  });
});

describe('local stage throttling', () => {
  it('answers 429 with Retry-After beyond the burst, as the deployed stage does', async () => {
    const server = createGateway({ throttling: { rateLimit: 1, burstLimit: 2 } });
    const port = await listen(server, { port: 0 });
    try {
      const statuses = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/v15/nothing`);
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get('retry-after');
          expect(await response.json()).toEqual([{ error: expect.objectContaining({ code: 'throttled' }) }]);
        } else {
          await response.text();
        }
      }
      expect(statuses).toEqual([404, 404, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

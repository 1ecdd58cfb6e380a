import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

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

import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';

const api = useTestApi();
let userToken: string;
beforeAll(async () => {
  const { app } = await appFixture();
  userToken = (await userFixture(app.app_id)).token;
});

describe('request pipeline', () => {
  it('answers malformed JSON with 400 and an error array', async () => {
    const response = await api.call('POST', '/v14/users', { rawBody: '{"user": {"email": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual([{ error: { object: 'request', property: 'body', message: 'The request body is not valid JSON.', code: 'malformed_json' } }]);
  });

  it('answers a non-JSON body with 415 and an error array', async () => {
    const response = await api.call('POST', '/v14/users', { rawBody: 'email=a@b.c', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body[0].error).toMatchObject({ object: 'request', property: 'content_type' });
  });

  it('answers an oversized body with 413', async () => {
    const response = await api.call('POST', '/v14/users', { rawBody: JSON.stringify({ user: { email: 'x'.repeat(70 * 1024) } }) });
    expect(response.status).toBe(413);
    expect(response.body[0].error.code).toBe('too_large');
  });

  it('accepts `{}` with a JSON content type on GET, as the C# and Ruby clients send', async () => {
    const response = await api.call('GET', '/v15/payment_token', { token: userToken, rawBody: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(200);
  });

  it('accepts a GET with a JSON content type and no body', async () => {
    const response = await api.call('GET', '/v15/payment_token', { token: userToken, headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(200);
  });

  it('puts a request id on every response', async () => {
    const first = await api.call('GET', '/v15/payment_token', { token: userToken });
    const second = await api.call('GET', '/v15/payment_token', { token: 'bad' });
    expect(first.headers.get('x-request-id')).toBeTruthy();
    expect(second.headers.get('x-request-id')).toBeTruthy();
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('never returns a stack trace', async () => {
    const response = await api.call('POST', '/v14/users', { rawBody: '[1,2' });
    expect(response.text).not.toMatch(/at .*\.ts:\d+/);
  });
});

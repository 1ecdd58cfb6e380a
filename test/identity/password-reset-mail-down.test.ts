/**
 * A password reset while the mail service is down (docs/identity.md, "Password reset"): the SES v2 endpoint
 * is unreachable for this file's process, so the send fails. The answer is 503 with Retry-After in the
 * contract's error format, never a 500, and the per-account email window keeps no hit for the unsent email.
 */
import { createServer } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { MAIL_RETRY_AFTER_SECONDS, RESET_EMAILS_PER_ACCOUNT } from '#shared/domain/password-resets.ts';
import { windowKey } from '#shared/domain/rate-limits.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { contractErrorProblem } from '../support/fuzz.ts';

const api = useTestApi();

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  // After the test API set the emulator's endpoint, and before the first email creates the SES client.
  process.env.SES_ENDPOINT = `http://127.0.0.1:${await closedPort()}`;
});

describe('POST /v14/passwords with SES unreachable', () => {
  it('answers 503 with Retry-After in the error format, and counts no email against the account', async () => {
    const { app } = await appFixture();
    const user = await userFixture(app.app_id);
    const response = await api.call('POST', '/v14/passwords', { body: { email: user.email } });
    expect(response.status, response.text).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBe(MAIL_RETRY_AFTER_SECONDS);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'base', property: 'base', code: 'mail_unavailable' }) }]);
    expect(contractErrorProblem(response)).toBeUndefined();
    const window = await db().send(new GetCommand({ TableName: table(), Key: windowKey(RESET_EMAILS_PER_ACCOUNT, user.email.toLowerCase()), ConsistentRead: true }));
    expect(Number(window.Item?.count ?? 0)).toBe(0);
    // The account still logs in with its password: nothing about it changed.
    const login = await api.call('POST', '/v15/access_tokens', { body: { access_token: { api_key: (await appFixture()).apiKey, username: user.email, password: user.password } } });
    expect(login.status, login.text).toBe(200);
  });

  it('an unregistered email still answers 204 (no email is attempted)', async () => {
    const response = await api.call('POST', '/v14/passwords', { body: { email: `nobody-${Date.now()}@example.com` } });
    expect(response.status).toBe(204);
  });
});

/**
 * A password reset while the mail service is down (docs/identity.md, "Password reset"): the request answers 204
 * as for any email (the mail is composed and sent after the answer, so a failing SES cannot tell a registered
 * email either), the stream's send fails and is retried with its batch, and once SES is back the retry sends a
 * working link. SES is reached through a loopback proxy this file turns off and on; the stream batch is handed
 * to the same function AWS invokes, as a retried batch is.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { tableStreamRecords } from '../support/webhooks.ts';
import { streamHandler } from '../../functions/events-stream.ts';

const api = useTestApi();
let sesUp = false;
let proxy: Server;

beforeAll(async () => {
  const ses = new URL(inject('sesEndpoint'));
  // Down: every connection is dropped. Up: forwarded to the run's SES v2 emulator.
  proxy = createServer((incoming, answer) => {
    if (!sesUp) return void incoming.socket.destroy();
    const forwarded = httpRequest(
      { host: ses.hostname, port: ses.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    forwarded.on('error', () => answer.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  // After the test API set the emulator's endpoint, and before the first email creates the SES client.
  process.env.SES_ENDPOINT = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

/** The stream's records of the mail items written so far, as the mapping hands a batch (again, on a retry). */
async function mailBatch(): Promise<DynamoDBStreamEvent> {
  const records = (await tableStreamRecords(api)).filter(
    (record) => record.eventName === 'INSERT' && keys.isMailKey({ pk: record.dynamodb.Keys?.pk?.S, sk: record.dynamodb.Keys?.sk?.S }),
  );
  return { Records: records } as DynamoDBStreamEvent;
}

describe('POST /v14/passwords with SES unreachable', () => {
  it('answers 204 for a registered and an unknown email alike; the send is retried until SES is back, then the link works', async () => {
    const { app, apiKey } = await appFixture();
    const user = await userFixture(app.app_id);
    const nobody = `nobody-${Date.now()}@example.com`;
    const known = await api.call('POST', '/v14/passwords', { body: { email: user.email } });
    const unknown = await api.call('POST', '/v14/passwords', { body: { email: nobody } });
    for (const response of [known, unknown]) {
      expect(response.status, response.text).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers.has('retry-after')).toBe(false);
    }

    const batch = await mailBatch();
    expect(batch.Records).toHaveLength(2);
    // SES down: the batch fails (the mapping retries it); the registered email's mail is still owed.
    await expect(streamHandler(batch)).rejects.toThrow();
    const mailIds = batch.Records.map((record) => record.dynamodb!.Keys!.pk!.S!);
    const owed = await Promise.all(
      mailIds.map(async (pk) => (await db().send(new GetCommand({ TableName: table(), Key: { pk, sk: 'MAIL' }, ConsistentRead: true }))).Item!),
    );
    const knownMail = owed.find((item) => item.to === user.email)!;
    expect(knownMail.sent_at).toBeUndefined();
    expect(knownMail.failed_at).toBeUndefined();
    expect(await mailTo(user.email, { timeoutMs: 0 })).toEqual([]);

    // SES back: the retried batch sends the registered email its link, and nothing to the unknown one.
    sesUp = true;
    expect(await streamHandler(batch)).toMatchObject({ mailed: 1 });
    const [mail] = await mailTo(user.email);
    const secret = new URL(resetLinkIn(mail!)).hash.slice('#token='.length);
    expect((await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'set after the outage' } } })).status).toBe(
      204,
    );
    const login = await api.call('POST', '/v15/access_tokens', {
      body: { access_token: { api_key: apiKey, username: user.email, password: 'set after the outage' } },
    });
    expect(login.status, login.text).toBe(200);
    expect(await mailTo(nobody, { timeoutMs: 0 })).toEqual([]);
    // Handed over again (a replay): nothing more is sent.
    expect(await streamHandler(batch)).toMatchObject({ mailed: 0 });
  });
});

import './registration-oracle.env.ts';
/**
 * No registration oracle (issue 33 point 7; docs/security.md, "Who is registered"): a password reset and an app's
 * permissions request answer a registered email and an unknown one with the same status, body and headers, from
 * the same DynamoDB calls (X-DynamoDB-Round-Trips and X-DynamoDB-Capacity-Units: the structural proof that the
 * work before the answer does not depend on the email, instead of a timing). The registered email still gets its
 * mail, composed after the answer on the table's stream (DynamoDB Local's stream, the SES v2 emulator), and the
 * unknown one gets none; both are rate-limited per caller and per email, 429 with Retry-After, the same for both.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { db, table } from '#shared/db/client.ts';
import {
  PASSWORD_RESETS_PER_CLIENT,
  PASSWORD_RESETS_PER_EMAIL,
  PERMISSIONS_REQUESTS_PER_APP,
  PERMISSIONS_REQUESTS_PER_EMAIL,
} from '#shared/domain/rate-limits.ts';
import type { ApiResult } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { contractErrorProblem, politeCall } from '../support/fuzz.ts';
import { mailTo, resetLinkIn } from '../support/mailbox.ts';
import { useMailingTestApi } from '../support/webhooks.ts';

const mailing = useMailingTestApi();
const { api } = mailing;
afterAll(() => {
  delete process.env.DYNAMODB_STATS;
});

/** An address nobody registered, as long as a fixture user's (`user-<uuid>@example.com`): the same item sizes. */
const unknownEmail = () => `user-${randomUUID()}@example.com`;

/** Headers that differ between any two answers (when and which request), whatever the request. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'x-amzn-requestid', 'apigw-requestid', 'x-amzn-trace-id', 'x-handler-cpu-ms', 'retry-after']);
const stableHeaders = (response: ApiResult, ignore: readonly string[]) =>
  Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name) && !ignore.includes(name)));

/**
 * The two answers are the same answer: status, body and headers (the round trips and capacity among them).
 * `normalize` takes out what each answer has of its own (a request's id), and then its length too.
 */
function expectSameAnswer(known: ApiResult, unknown: ApiResult, normalize?: (text: string) => string) {
  const normalized = normalize ?? ((text: string) => text);
  const ignore = normalize ? ['content-length'] : [];
  expect(unknown.status).toBe(known.status);
  expect(normalized(unknown.text)).toBe(normalized(known.text));
  expect(stableHeaders(unknown, ignore)).toEqual(stableHeaders(known, ignore));
  // The benchmark mode's counts come with answers that succeeded (an error's are logged instead).
  if (known.status < 400) expect(known.headers.get('x-dynamodb-round-trips')).toEqual(expect.any(String));
  expect(unknown.headers.has('retry-after')).toBe(known.headers.has('retry-after'));
}

const appToken = async (fixture = mailing.app) =>
  (await api.call('POST', '/v15/access_tokens', { body: { api_key: fixture.apiKey, client_secret: fixture.clientSecret } })).body.access_token.token as string;
// Bursts wait out the local gateway's own per-client throttle (politeCall), so only the handlers' limits answer 429.
const askPermissions = (token: string, email: string) =>
  politeCall(api, 'POST', '/v15/apps/permissions_requests', { token, body: { permissions_request: { email, permission_keynames: ['read_user_basic_info'] } } });
const askReset = (email: string, localAddress = '127.0.0.41') => politeCall(api, 'POST', '/v14/passwords', { localAddress, body: { email } });

/** The mail items written for `to` once the stream has handled them all (each sent or skipped), polled. */
async function handledMailsTo(to: string): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const items =
      (
        await db().send(
          new ScanCommand({
            TableName: table(),
            ConsistentRead: true,
            FilterExpression: 'entity = :mail AND #to = :to',
            ExpressionAttributeNames: { '#to': 'to' },
            ExpressionAttributeValues: { ':mail': 'Mail', ':to': to },
          }),
        )
      ).Items ?? [];
    if ((items.length > 0 && items.every((item) => item.sent_at !== undefined || item.skipped_at !== undefined)) || Date.now() > deadline) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectRateLimited(response: ApiResult, windowSeconds: number) {
  expect(response.status, response.text).toBe(429);
  expect(contractErrorProblem(response)).toBeUndefined();
  expect(response.body).toEqual([{ error: expect.objectContaining({ code: 'rate_limited' }) }]);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('POST /v14/passwords', () => {
  it('answers a registered and an unknown email alike, from the same DynamoDB calls; only the registered one is mailed, after the answer', async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const nobody = unknownEmail();
    const known = await askReset(user.email);
    const unknown = await askReset(nobody);
    expect(known.status, known.text).toBe(204);
    expectSameAnswer(known, unknown);
    // Two rate windows and one outbox item: nothing read about the email before the answer.
    expect(known.headers.get('x-dynamodb-round-trips')).toBe('3');

    const [mail] = await mailTo(user.email, { timeoutMs: 15_000 });
    const secret = new URL(resetLinkIn(mail!)).hash.slice('#token='.length);
    // The secret was made when the mail was composed: no item of the table ever held it (the outbox item has no body).
    const everything = (await db().send(new ScanCommand({ TableName: table(), ConsistentRead: true }))).Items ?? [];
    expect(JSON.stringify(everything)).not.toContain(secret);
    expect((await api.call('POST', '/v15/password_resets', { body: { password_reset: { token: secret, password: 'a brand new password' } } })).status).toBe(
      204,
    );
    const [skipped] = await handledMailsTo(nobody);
    expect(skipped).toMatchObject({ skipped_at: expect.any(String) });
    expect(skipped!.sent_at).toBeUndefined();
    expect(await mailTo(nobody, { timeoutMs: 0 })).toEqual([]);
  });

  it(`refuses requests for one email past ${PASSWORD_RESETS_PER_EMAIL.limit} an hour with 429 and Retry-After, registered or not`, async () => {
    const user = await userFixture(mailing.app.app.app_id);
    const nobody = unknownEmail();
    for (let attempt = 0; attempt < PASSWORD_RESETS_PER_EMAIL.limit; attempt++) {
      // Each from its own address: the email's window is what refuses, not the client's.
      expectSameAnswer(await askReset(user.email, `127.0.1.${attempt + 1}`), await askReset(nobody, `127.0.2.${attempt + 1}`));
    }
    const known = await askReset(user.email, '127.0.1.100');
    const unknown = await askReset(nobody, '127.0.2.100');
    expectRateLimited(known, PASSWORD_RESETS_PER_EMAIL.windowSeconds);
    expectSameAnswer(known, unknown);
    // The refused requests mailed nothing: the registered email got one reset mail per request answered 204.
    expect(await mailTo(user.email, { atLeast: PASSWORD_RESETS_PER_EMAIL.limit, timeoutMs: 15_000 })).toHaveLength(PASSWORD_RESETS_PER_EMAIL.limit);
  });

  it(`refuses a client's requests past ${PASSWORD_RESETS_PER_CLIENT.limit} an hour, over any emails; other clients still ask`, async () => {
    const client = '127.0.3.1';
    const answers = await Promise.all(Array.from({ length: PASSWORD_RESETS_PER_CLIENT.limit + 1 }, () => askReset(unknownEmail(), client)));
    // Counted before the work, in one conditional write each: a concurrent burst gets exactly the limit through.
    expect(answers.filter((answer) => answer.status === 204)).toHaveLength(PASSWORD_RESETS_PER_CLIENT.limit);
    const refused = answers.filter((answer) => answer.status !== 204);
    expect(refused).toHaveLength(1);
    expectRateLimited(refused[0]!, PASSWORD_RESETS_PER_CLIENT.windowSeconds);
    expect((await askReset(unknownEmail(), client)).status).toBe(429);
    expect((await askReset(unknownEmail(), '127.0.3.2')).status).toBe(204);
  });
});

describe('POST /v15/apps/permissions_requests', () => {
  /** The answers differ in the request's id alone (each request has its own). */
  const withoutId = (text: string) => text.replace(/"id":\d+/, '"id":0');

  it('answers a registered and an unknown email alike, from the same DynamoDB calls; only the user is notified and sees the request', async () => {
    const token = await appToken();
    const user = await userFixture(mailing.app.app.app_id);
    const nobody = unknownEmail();
    const known = await askPermissions(token, user.email);
    const unknown = await askPermissions(token, nobody);
    expect(known.status, known.text).toBe(200);
    expect(known.body.permissions_request).toMatchObject({ app_id: mailing.app.app.app_id, permission_keynames: ['read_user_basic_info'], state: 'pending' });
    expect(unknown.body.permissions_request.id).not.toBe(known.body.permissions_request.id);
    expectSameAnswer(known, unknown, withoutId);
    // The app's token, two rate windows, the id counter and one transaction: nothing read about the email.
    expect(known.headers.get('x-dynamodb-round-trips')).toBe('5');

    const [notice] = await mailTo(user.email, { timeoutMs: 15_000 });
    expect(notice?.subject).toContain('asks for access');
    const pending = await api.call('GET', '/v15/permissions_requests', { token: user.token });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.permissions_request.id).toBe(known.body.permissions_request.id);
    const [skipped] = await handledMailsTo(nobody);
    expect(skipped).toMatchObject({ skipped_at: expect.any(String) });
    expect(await mailTo(nobody, { timeoutMs: 0 })).toEqual([]);

    // Polling each shows the same pending request (the unknown one expires unanswered, as an ignored one does).
    const polls = await Promise.all(
      [known, unknown].map((answer) => api.call('GET', `/v15/apps/permissions_requests/${answer.body.permissions_request.id}`, { token })),
    );
    for (const [index, poll] of polls.entries())
      expect(poll.body.permissions_request).toMatchObject({ state: 'pending', token: null, email: [user.email, nobody][index] });

    // A second request while one is pending: the same 422 for both (one pending request per email, registered or not).
    const knownAgain = await askPermissions(token, user.email);
    const unknownAgain = await askPermissions(token, nobody);
    expect(knownAgain.status).toBe(422);
    expect(knownAgain.body).toEqual([{ error: expect.objectContaining({ object: 'permissions_request', property: 'email', code: 'pending_exists' }) }]);
    expectSameAnswer(knownAgain, unknownAgain);
  });

  it(`refuses requests for one email past ${PERMISSIONS_REQUESTS_PER_EMAIL.limit} a day with 429, registered or not`, async () => {
    const token = await appToken();
    const user = await userFixture(mailing.app.app.app_id);
    const nobody = unknownEmail();
    for (let attempt = 0; attempt < PERMISSIONS_REQUESTS_PER_EMAIL.limit; attempt++)
      expectSameAnswer(await askPermissions(token, user.email), await askPermissions(token, nobody), withoutId);
    const known = await askPermissions(token, user.email);
    expectRateLimited(known, PERMISSIONS_REQUESTS_PER_EMAIL.windowSeconds);
    expectSameAnswer(known, await askPermissions(token, nobody));
  });

  // 101 requests through one credential wait out the local gateway's throttle: a longer timeout under a loaded suite.
  it(`refuses an app's requests past ${PERMISSIONS_REQUESTS_PER_APP.limit} an hour; another app still asks`, async () => {
    // An app of its own: the other tests' requests count against theirs.
    const token = await appToken(await appFixture());
    // In concurrent waves of 20 (a burst of 101 at once mostly measures the local gateway and DynamoDB Local
    // under load); the last wave of 21 straddles the limit, so concurrent attempts at its edge are counted once each.
    const answers: ApiResult[] = [];
    for (let sent = 0; sent <= PERMISSIONS_REQUESTS_PER_APP.limit;) {
      const remaining = PERMISSIONS_REQUESTS_PER_APP.limit + 1 - sent;
      const wave = remaining <= 21 ? remaining : 20;
      answers.push(...(await Promise.all(Array.from({ length: wave }, () => askPermissions(token, unknownEmail())))));
      sent += wave;
    }
    expect(
      answers.map((answer) => answer.status).filter((status) => status !== 200),
      JSON.stringify(
        answers
          .filter((answer) => answer.status !== 200 && answer.status !== 429)
          .map((answer) => answer.body)
          .slice(0, 3),
      ),
    ).toEqual([429]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PERMISSIONS_REQUESTS_PER_APP.limit);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(1);
    expectRateLimited(refused[0]!, PERMISSIONS_REQUESTS_PER_APP.windowSeconds);
    expect((await askPermissions(await appToken(await appFixture()), unknownEmail())).status).toBe(200);
  }, 180_000);
});

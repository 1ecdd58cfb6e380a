/**
 * The mail outbox when SES misbehaves (docs/events.md, "Email from the outbox"): this file's SES client talks to
 * the run's SES v2 emulator through a loopback HTTP relay the test switches between forwarding, failing (503, as
 * an outage: the batch fails and the stream retries it) and refusing the message (400 MessageRejected: recorded,
 * never retried). Gift card orders answer 200 whatever SES does; each committed order's recipient gets exactly
 * one email once SES is back; a refused mail does not hold the stream.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { mailTo } from '../support/mailbox.ts';
import { startEventPipeline, waitUntil } from '../support/webhooks.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';

type RelayMode = 'forward' | 'unavailable' | 'reject';

const api = useTestApi();
let world: OrderWorld;
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let relay: Server;
let mode: RelayMode = 'forward';
/** Requests the relay answered itself (503 or 400), by mode. */
const refused: Record<RelayMode, number> = { forward: 0, unavailable: 0, reject: 0 };

/** A loopback relay to the emulator whose answers the test chooses. */
async function startRelay(target: URL): Promise<string> {
  relay = createServer((incoming, answer) => {
    if (mode !== 'forward') {
      refused[mode]++;
      incoming.resume();
      const [status, type] = mode === 'unavailable' ? [503, 'ServiceUnavailable'] : [400, 'MessageRejected'];
      answer.writeHead(status, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': type }).end(JSON.stringify({ message: `relay: ${type}` }));
      return;
    }
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (upstream) => {
        answer.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(answer);
      },
    );
    incoming.pipe(outgoing);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
}

beforeAll(async () => {
  // After the test API set the emulator's endpoint, and before the first email creates the SES client.
  process.env.SES_ENDPOINT = await startRelay(new URL(inject('sesEndpoint')));
  world = await orderWorld();
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
  await new Promise<void>((resolve) => relay?.close(() => resolve()));
});

async function buyFor(email: string) {
  const response = await api.call('POST', '/v15/users/gift_card_value_orders', {
    token: world.user.token,
    body: { gift_card_value_order: { merchant_id: world.merchant.merchant.merchant_id, recipient_email: email, value_amount: 1000 } },
  });
  expect(response.status, response.text).toBe(200);
  return keys.mail(`gcorder:${response.body.gift_card_value_order.uuid}`);
}

const mailItem = async (key: ReturnType<typeof keys.mail>) => (await readItems([key], { consistent: true }))[0];

/** The mail item once `done` holds of it (the stream marks it right after SES answers), or as it is after 10 s. */
async function mailItemOnce(key: ReturnType<typeof keys.mail>, done: (item: Record<string, unknown> | undefined) => boolean) {
  let item = await mailItem(key);
  for (let waited = 0; !done(item) && waited < 100; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    item = await mailItem(key);
  }
  return item;
}

describe('the mail outbox with SES failing', () => {
  it('answers while SES is down; the stream retries the mail until SES takes it, and it arrives once', async () => {
    mode = 'unavailable';
    const recipient = await userFixture(world.app.app_id);
    const key = await buyFor(recipient.email);
    // The stream tried (and the SDK retried) against the outage, more than once: nothing sent, nothing marked.
    await waitUntil(() => refused.unavailable >= 4, 'the stream to try SES during the outage', 30_000);
    expect(await mailItem(key)).toMatchObject({ to: recipient.email, text: expect.any(String) });
    expect((await mailItem(key))!.sent_at).toBeUndefined();
    mode = 'forward';
    const mail = await mailTo(recipient.email, { timeoutMs: 30_000 });
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body.text).toContain('$10.00');
    expect(await mailItemOnce(key, (item) => item?.sent_at !== undefined)).toMatchObject({ sent_at: expect.any(String) });
    // A later look finds no second copy (retried batches skip a mail marked sent).
    expect(await mailTo(recipient.email, { atLeast: 2, timeoutMs: 1000 })).toHaveLength(1);
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('records a mail SES refuses for good and never retries it; the next mail still goes out', async () => {
    mode = 'reject';
    const rejected = await userFixture(world.app.app_id);
    const key = await buyFor(rejected.email);
    await waitUntil(() => refused.reject >= 1, 'the stream to offer the mail to SES', 30_000);
    const refusedAt = refused.reject;
    const item = await mailItemOnce(key, (found) => found?.failed_at !== undefined);
    expect(item).toMatchObject({ failed_at: expect.any(String), failure: 'MessageRejected' });
    expect(item!.sent_at).toBeUndefined();
    mode = 'forward';
    const next = await userFixture(world.app.app_id);
    await buyFor(next.email);
    expect(await mailTo(next.email, { timeoutMs: 30_000 })).toHaveLength(1);
    // The refused one was offered once (a 400 is not retried by the SDK or the stream) and never reached the mailbox.
    expect(refused.reject).toBe(refusedAt);
    expect(refusedAt).toBe(1);
    expect(await mailTo(rejected.email, { timeoutMs: 0 })).toEqual([]);
  });
});

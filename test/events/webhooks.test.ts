import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { EVENT_AUDIENCE, type EventType } from '#shared/domain/events/catalogue.ts';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { RETRY_SCHEDULE_SECONDS } from '#shared/domain/events/delivery.ts';
import { useTestApi } from '../support/api.ts';
import { loadGiftCard, orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { createEndpoint, listAllEvents, merchantEventWorlds, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

/**
 * Issue 17's acceptance, through HTTP with real receivers on loopback: the local stack's delivery path
 * (DynamoDB Local's stream -> the local FIFO queue -> the delivery function) with the schedule's time
 * scaled down (WEBHOOK_TIME_SCALE; docs/events.md).
 */
const TIME_SCALE = 0.02;
process.env.WEBHOOK_TIME_SCALE = String(TIME_SCALE);
const api = useTestApi();
let worlds: Awaited<ReturnType<typeof merchantEventWorlds>>;
let pipeline: typeof worlds.pipeline;
let world: OrderWorld;
let receiver: Receiver;
let endpoint: { id: string; secret: string };
let otherMerchant: OrderWorld;
let otherReceiver: Receiver;

beforeAll(async () => {
  worlds = await merchantEventWorlds(api);
  ({ pipeline, world, other: otherMerchant, receiver, otherReceiver, endpoint } = worlds);
});

afterAll(() => worlds?.stop());

const signatureValid = (delivery: { headers: Record<string, unknown>; body: string }, secret: string) =>
  verifySignature(String(delivery.headers['levelup-signature']), delivery.body, secret);

describe('delivery to the merchant', () => {
  it('delivers order.completed then order.refunded, in order, signed, each within 10 s', async () => {
    const completed = await placeOrder(api, world);
    expect(completed.status).toBe(200);
    const uuid = completed.body.order.uuid as string;
    await waitUntil(() => receiver.delivered().some((event) => event.type === 'order.completed' && event.resource.id === uuid), 'order.completed', 10_000);
    const refund = await api.call('POST', `/v15/orders/${uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });
    expect(refund.status).toBe(200);
    await waitUntil(() => receiver.delivered().some((event) => event.type === 'order.refunded' && event.resource.id === uuid), 'order.refunded', 10_000);

    const ofOrder = receiver.delivered().filter((event) => event.resource.id === uuid);
    expect(ofOrder.map((event) => [event.type, event.sequence])).toEqual([
      ['order.completed', 1],
      ['order.refunded', 2],
    ]);
    expect(ofOrder[0]!.data).toMatchObject({ uuid, spend_amount: 1000, refunded_at: null });
    expect(ofOrder[1]!.data).toMatchObject({ uuid, refunded_at: expect.any(String) });
    for (const delivery of receiver.received) {
      expect(signatureValid(delivery, endpoint.secret)).toBe(true);
      expect(signatureValid(delivery, 'whsec_wrong')).toBe(false);
    }
  });
});

const loadOnce = (target: OrderWorld, amount = 1000) =>
  loadGiftCard(api, target.merchant.token, target.merchant.merchant.merchant_id, {
    payment_token_data: target.user.user.payment_token_data,
    value_amount: amount,
    external_identifier: `load-${randomUUID()}`,
  });

describe('retries', () => {
  it('delivers an event a third time, same id and body, after two 500s, waiting the schedule between attempts', async () => {
    const flaky = await startReceiver();
    try {
      const target = await orderWorld({ card: 'valid' });
      await createEndpoint(api, target.merchant.token, flaky.url, ['gift_card.value_added']);
      let failures = 0;
      flaky.answerWith(() => (failures++ < 2 ? 500 : 200));
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => flaky.delivered().length === 1, 'the third attempt', 30_000);
      const attempts = flaky.received;
      expect(attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
      expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
      expect(new Set(attempts.map((attempt) => attempt.headers['levelup-event-id'])).size).toBe(1);
      // The waits are at least the schedule's first and second figures (scaled), jitter only adds.
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(RETRY_SCHEDULE_SECONDS[0] * TIME_SCALE * 1000 - 5);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(RETRY_SCHEDULE_SECONDS[1] * TIME_SCALE * 1000 - 5);
    } finally {
      await flaky.close();
    }
  });

  it("holds a resource's later events while the receiver is down and delivers all five in sequence order when it is back", async () => {
    const intermittent = await startReceiver();
    try {
      const target = await orderWorld({ card: 'valid' });
      await createEndpoint(api, target.merchant.token, intermittent.url, ['gift_card.value_added']);
      await intermittent.close();
      for (let load = 0; load < 5; load++) expect((await loadOnce(target)).status).toBe(200);
      await intermittent.listen();
      await waitUntil(() => intermittent.delivered().length === 5, 'five deliveries', 30_000);
      const events = intermittent.delivered();
      expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(events.map((event) => event.resource.id)).size).toBe(1);
      expect(events.map((event) => event.data.new_value_at_merchant_amount)).toEqual([1000, 2000, 3000, 4000, 5000]);
    } finally {
      await intermittent.close();
    }
  });
});

describe('GET /v15/events and replays', () => {
  it("pages the merchant's events in order with Link, ending in 204, and filters by type", async () => {
    const target = await orderWorld({ card: 'valid' });
    for (let load = 0; load < 51; load++) expect((await loadOnce(target, 1000)).status).toBe(200);
    const first = await api.call('GET', '/v15/events', { token: target.merchant.token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await api.call('GET', next!, { token: target.merchant.token });
    expect(second.status).toBe(200);
    const events = [...first.body, ...second.body].map((item: { event: { sequence: number; id: string } }) => item.event);
    expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 51 }, (_, index) => index + 1));
    expect([...events.map((event) => event.id)].sort()).toEqual(events.map((event) => event.id));
    const last = /<([^>]+)>; rel="next"/.exec(second.headers.get('link') ?? '')?.[1];
    // The last page links the page after it too: the end, 204.
    expect(last).toBeDefined();
    expect((await api.call('GET', last!, { token: target.merchant.token })).status).toBe(204);
    const afterAll = await api.call('GET', `/v15/events?after=${events.at(-1)!.id}`, { token: target.merchant.token });
    expect(afterAll.status).toBe(204);
    expect((await api.call('GET', '/v15/events?types=order.completed', { token: target.merchant.token })).status).toBe(204);
  });

  it('lists what the endpoint received, in the same order, and a replay delivers it again with the same ids and bodies', async () => {
    const listed = await listAllEvents(api, world.merchant.token);
    const receivedIds = receiver.delivered().map((event) => event.id);
    expect(listed.map((event) => event.id)).toEqual(receivedIds);

    const before = receiver.received.length;
    const replayed = await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, {
      token: world.merchant.token,
      body: { replay: { after: receivedIds[0] } },
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body.replay.queued).toBe(receivedIds.length - 1);
    await waitUntil(() => receiver.received.length === before + receivedIds.length - 1, 'the replay', 10_000);
    const again = receiver.received.slice(before);
    expect(again.map((delivery) => JSON.parse(delivery.body).event.id)).toEqual(receivedIds.slice(1));
    const firstBodies = new Map(receiver.received.slice(0, before).map((delivery) => [JSON.parse(delivery.body).event.id, delivery.body]));
    for (const delivery of again) expect(delivery.body).toBe(firstBodies.get(JSON.parse(delivery.body).event.id));
  });
});

describe('tenants', () => {
  it("never delivers or lists one merchant's events to another merchant", async () => {
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 30_000);
    const ours = new Set(receiver.delivered().map((event) => event.id));
    expect(ours.size).toBeGreaterThan(0);
    expect(otherReceiver.received.filter((delivery) => ours.has(JSON.parse(delivery.body).event.id))).toEqual([]);
    expect(otherReceiver.received).toEqual([]);
    expect((await api.call('GET', '/v15/events', { token: otherMerchant.merchant.token })).status).toBe(204);
    // Another merchant's endpoint id is not found for it: not listed, not deletable, not replayable.
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${endpoint.id}`, { token: otherMerchant.merchant.token })).status).toBe(404);
    expect(
      (
        await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, {
          token: otherMerchant.merchant.token,
          body: { replay: { after: [...ours][0] } },
        })
      ).status,
    ).toBe(404);
    expect((await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/secrets`, { token: otherMerchant.merchant.token })).status).toBe(404);
  });

  it("gives an app only its users' event types, and a merchant only its own", async () => {
    const appToken = await issueToken({ subject: 'app', appId: world.app.app_id });
    const refused = await api.call('POST', '/v15/webhook_endpoints', {
      token: appToken,
      body: { webhook_endpoint: { url: receiver.url, events: ['order.completed'] } },
    });
    expect(refused.status).toBe(422);
    const merchantRefused = await api.call('POST', '/v15/webhook_endpoints', {
      token: world.merchant.token,
      body: { webhook_endpoint: { url: receiver.url, events: ['reward.earned'] } },
    });
    expect(merchantRefused.status).toBe(422);
    const appEndpoint = await createEndpoint(api, appToken, receiver.url, ['reward.earned', 'credit_card.created']);
    // The app lists its users' events (the card its user added), none of the merchants' orders or gift cards.
    const appEvents = await api.call('GET', '/v15/events', { token: appToken });
    expect(appEvents.status).toBe(200);
    expect(appEvents.body.map((item: { event: { type: string } }) => item.event.type)).toContain('credit_card.created');
    for (const item of appEvents.body) expect(EVENT_AUDIENCE[item.event.type as EventType]).toBe('app');
    const list = await api.call('GET', '/v15/webhook_endpoints', { token: appToken });
    expect(list.body.map((item: { webhook_endpoint: { id: string } }) => item.webhook_endpoint.id)).toEqual([appEndpoint.id]);
    expect(list.body[0].webhook_endpoint.secret).toBeUndefined();
  });
});

describe('endpoint rules', () => {
  it.each([
    'ftp://example.com/hook',
    'http://example.com/hook',
    'https://10.0.0.8/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://localhost/hook',
    'https://user:pass@example.com/hook',
    'http://10.0.0.8/hook',
    'not a url',
  ])('refuses %s with 422', async (url) => {
    const response = await api.call('POST', '/v15/webhook_endpoints', {
      token: world.merchant.token,
      body: { webhook_endpoint: { url, events: ['order.completed'] } },
    });
    expect(response.status).toBe(422);
  });

  it('takes at most 10 endpoints, and one more after a delete', async () => {
    const target = await orderWorld({ card: 'none' });
    const made = [];
    for (let index = 0; index < 10; index++)
      made.push(await createEndpoint(api, target.merchant.token, `https://hooks.example.com/${index}`, ['order.completed']));
    const eleventh = await api.call('POST', '/v15/webhook_endpoints', {
      token: target.merchant.token,
      body: { webhook_endpoint: { url: 'https://hooks.example.com/x', events: ['order.completed'] } },
    });
    expect(eleventh.status).toBe(422);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${made[0]!.id}`, { token: target.merchant.token })).status).toBe(204);
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${made[0]!.id}`, { token: target.merchant.token })).status).toBe(404);
    await createEndpoint(api, target.merchant.token, 'https://hooks.example.com/again', ['order.completed']);
  });

  it('signs with both secrets for a day after a roll', async () => {
    const target = await orderWorld({ card: 'valid' });
    const rolled = await startReceiver();
    try {
      const made = await createEndpoint(api, target.merchant.token, rolled.url, ['gift_card.value_added']);
      const roll = await api.call('POST', `/v15/webhook_endpoints/${made.id}/secrets`, { token: target.merchant.token });
      expect(roll.status).toBe(200);
      const secret = roll.body.webhook_endpoint.secret as string;
      expect(secret).not.toBe(made.secret);
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => rolled.delivered().length === 1, 'the delivery');
      const delivery = rolled.received[0]!;
      expect(String(delivery.headers['levelup-signature']).match(/v1=/g)).toHaveLength(2);
      expect(signatureValid(delivery, secret)).toBe(true);
      expect(signatureValid(delivery, made.secret)).toBe(true);
    } finally {
      await rolled.close();
    }
  });
});

describe('giving up', () => {
  it('marks a delivery failed after 7 days (scaled) of failures, visible on the endpoint, and moves on', async () => {
    process.env.WEBHOOK_TIME_SCALE = '0.000005'; // 7 days -> about 3 s
    const broken = await startReceiver();
    try {
      const target = await orderWorld({ card: 'valid' });
      const made = await createEndpoint(api, target.merchant.token, broken.url, ['gift_card.value_added']);
      broken.answerWith(() => 503);
      expect((await loadOnce(target)).status).toBe(200);
      let endpoints: any;
      for (let poll = 0; poll < 600 && endpoints?.[0]?.webhook_endpoint.failed_deliveries !== 1; poll++) {
        endpoints = (await api.call('GET', '/v15/webhook_endpoints', { token: target.merchant.token })).body;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(endpoints[0].webhook_endpoint).toMatchObject({ id: made.id, failed_deliveries: 1, last_failure: { last_status: 503 } });
      expect(broken.received.length).toBeGreaterThan(RETRY_SCHEDULE_SECONDS.length);
      // The next event of the same gift card is not held behind the given-up one.
      broken.answerWith(() => 200);
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => broken.delivered().length === 1, 'the next event');
      expect(broken.delivered()[0]!.sequence).toBe(2);
    } finally {
      process.env.WEBHOOK_TIME_SCALE = String(TIME_SCALE);
      await broken.close();
    }
  });
});

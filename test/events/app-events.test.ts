/**
 * The app's events (issue 17, docs/events.md "Catalogue"): order-ahead outcomes and credit card changes reach
 * the endpoint an app registered with its own token, through HTTP with real receivers on loopback and the
 * local stack's delivery path; signed, in sequence per resource, with `data` as the API shows it to the app;
 * listed by GET /v15/events for that app only; never delivered to another app or to a merchant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { SANDBOX_PROVIDERS } from '#shared/ordering/sandbox.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture, uniqueNonce } from '../support/cards.ts';
import { appFixture } from '../support/fixtures.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollLikeIos, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';
import { createEndpoint, listAllEvents, MERCHANT_EVENTS, startEventPipeline, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

process.env.WEBHOOK_TIME_SCALE = '0.02';
const APP_EVENTS = ['order_ahead.validated', 'order_ahead.invalidated', 'order_ahead.completed', 'credit_card.created', 'credit_card.deactivated'];

const api = useTestApi(() => startOrderAheadTestApi({ retryIntervalMs: 10 }));
const configuredBaseUrl = process.env.PUBLIC_BASE_URL;
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let place: Awaited<ReturnType<typeof orderAheadLocationFixture>>;
let appToken: string;
let otherAppToken: string;
let otherAppId: number;
let receiver: Receiver;
let otherAppReceiver: Receiver;
let merchantReceiver: Receiver;
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  // Events are written by workflow steps, outside any request: their links use the public address, as in AWS.
  process.env.PUBLIC_BASE_URL = api.baseUrl;
  pipeline = await startEventPipeline(api);
  place = await orderAheadLocationFixture({ provider: SANDBOX_PROVIDERS.accepts });
  const otherApp = (await appFixture({ global: true })).app;
  appToken = await issueToken({ subject: 'app', appId: place.app.app_id });
  otherAppId = otherApp.app_id;
  otherAppToken = await issueToken({ subject: 'app', appId: otherAppId });
  [receiver, otherAppReceiver, merchantReceiver] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
  endpoint = await createEndpoint(api, appToken, receiver.url, APP_EVENTS);
  await createEndpoint(api, otherAppToken, otherAppReceiver.url, APP_EVENTS);
  await createEndpoint(api, place.merchant.token, merchantReceiver.url, MERCHANT_EVENTS);
});

afterAll(async () => {
  if (configuredBaseUrl === undefined) delete process.env.PUBLIC_BASE_URL;
  else process.env.PUBLIC_BASE_URL = configuredBaseUrl;
  await pipeline?.stop();
  await Promise.all([receiver?.close(), otherAppReceiver?.close(), merchantReceiver?.close()]);
});

type Delivered = ReturnType<Receiver['delivered']>[number];
const ofResource = (type: string, id: string): Delivered[] => receiver.delivered().filter((event) => event.resource.type === type && event.resource.id === id);
/** The resource's delivered events are exactly `expected`, numbered from 1, each with its data as the API answered it. */
function expectDelivered(type: string, id: string, expected: [eventType: string, data: unknown][]): Delivered[] {
  const events = ofResource(type, id);
  expect(events.map((event) => [event.type, event.sequence])).toEqual(expected.map(([eventType], index) => [eventType, index + 1]));
  for (const [index, [, data]] of expected.entries()) expect(events[index]!.data).toEqual(data);
  return events;
}
const waitForEvent = (type: string, resourceId: string) =>
  waitUntil(() => receiver.delivered().some((event) => event.type === type && event.resource.id === resourceId), type, 10_000);

function startOrder(token: string, itemId: number = SAMPLE_IDS.tots) {
  return api.call('POST', '/v15/order_ahead/orders', {
    token,
    body: {
      order: {
        location_id: place.location.location_id,
        conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
        items: [{ item: { id: itemId, quantity: 1, special_instructions: null, option_ids: itemId === SAMPLE_IDS.tots ? [SAMPLE_IDS.small] : [] } }],
        special_instructions: null,
        tip_amount: 100,
      },
    },
  });
}

describe('order-ahead events for the app', () => {
  it('delivers order_ahead.validated then order_ahead.completed, signed, each with the order as the app polls it', async () => {
    const customer = await orderAheadUserFixture(place.app.app_id);
    await cardFixture(customer.user.user_id);
    const started = await startOrder(customer.token);
    expect(started.status, started.text).toBe(200);
    const uuid = started.body.order.uuid as string;
    const { last: valid } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(valid.status, valid.text).toBe(200);
    await waitForEvent('order_ahead.validated', uuid);

    const submitted = await api.call('POST', valid.body.order.order_completion_url, { token: customer.token });
    expect(submitted.status, submitted.text).toBe(202);
    const { last: completed } = await pollLikeIos(api, submitted.body.order.order_url, customer.token);
    expect(completed.status, completed.text).toBe(200);
    await waitForEvent('order_ahead.completed', uuid);

    expectDelivered('order_ahead_order', uuid, [
      ['order_ahead.validated', valid.body.order],
      ['order_ahead.completed', completed.body.order],
    ]);
    for (const delivery of receiver.received) expect(verifySignature(String(delivery.headers['levelup-signature']), delivery.body, endpoint.secret)).toBe(true);
  });

  it('delivers order_ahead.invalidated with the error array the poll answers', async () => {
    const customer = await orderAheadUserFixture(place.app.app_id);
    const started = await startOrder(customer.token, 999_999);
    expect(started.status, started.text).toBe(200);
    const uuid = started.body.order.uuid as string;
    const { last } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
    expect(last.status, last.text).toBe(422);
    await waitForEvent('order_ahead.invalidated', uuid);
    const [event] = ofResource('order_ahead_order', uuid);
    expect(event).toMatchObject({ type: 'order_ahead.invalidated', sequence: 1 });
    expect(event!.data).toEqual({ uuid, state: 'externally_invalid', errors: last.body });
  });
});

describe('credit card events for the app', () => {
  it('delivers credit_card.created then credit_card.deactivated, each with the card as the API answered it', async () => {
    const customer = await orderAheadUserFixture(place.app.app_id);
    const created = await api.call('POST', '/v15/credit_cards', { token: customer.token, body: { credit_card: { gateway_payment_nonce: uniqueNonce() } } });
    expect(created.status, created.text).toBe(200);
    const cardId = String(created.body.credit_card.id);
    const deleted = await api.call('DELETE', `/v14/credit_cards/${cardId}`, { token: customer.token });
    expect(deleted.status, deleted.text).toBe(200);
    await waitForEvent('credit_card.deactivated', cardId);

    const events = expectDelivered('credit_card', cardId, [
      ['credit_card.created', created.body.credit_card],
      ['credit_card.deactivated', deleted.body.credit_card],
    ]);
    expect(events[1]!.data).toMatchObject({ state: 'inactive', promoted: false });
  });

  it("goes to the app the user registered through, whichever app's token made the change", async () => {
    const customer = await orderAheadUserFixture(place.app.app_id);
    // The other app acting for the user (a token it was granted): the card is still the user's, in every app.
    const otherAppsUserToken = await issueToken({
      subject: 'user',
      userId: customer.user.user_id,
      appId: otherAppId,
      permissions: ['manage_user_payment_methods'],
      unlimited: false,
    });
    const created = await api.call('POST', '/v15/credit_cards', { token: otherAppsUserToken, body: { credit_card: { gateway_payment_nonce: uniqueNonce() } } });
    expect(created.status, created.text).toBe(200);
    await waitForEvent('credit_card.created', String(created.body.credit_card.id));
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 30_000);
    expect(otherAppReceiver.received).toEqual([]);
  });
});

describe('listing and tenants', () => {
  it("pages the app's events with GET /v15/events, in the order delivered, and filters by type", async () => {
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 30_000);
    const listed = await listAllEvents(api, appToken);
    expect(listed.map((event) => event.id)).toEqual(receiver.delivered().map((event) => event.id));
    expect(new Set(listed.map((event) => event.type))).toEqual(new Set(APP_EVENTS));
    const cards = await listAllEvents(api, appToken, 'credit_card.created,credit_card.deactivated');
    expect(cards.map((event) => event.id)).toEqual(listed.filter((event) => event.type.startsWith('credit_card.')).map((event) => event.id));
  });

  it('never delivers or lists them to another app or to the merchant of the orders', async () => {
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 30_000);
    expect(receiver.delivered().length).toBeGreaterThan(0);
    expect(otherAppReceiver.received).toEqual([]);
    expect((await api.call('GET', '/v15/events', { token: otherAppToken })).status).toBe(204);
    // The merchant receives its own order.completed of the order-ahead order, and none of the app's types.
    const merchantTypes = new Set(merchantReceiver.delivered().map((event) => event.type));
    expect([...merchantTypes]).toEqual(['order.completed']);
    const merchantListed = await api.call('GET', '/v15/events', { token: place.merchant.token });
    expect(merchantListed.body.map((item: { event: { type: string } }) => item.event.type)).toEqual(['order.completed']);
    // The app's endpoint is not the other app's: not deletable, not replayable.
    expect((await api.call('DELETE', `/v15/webhook_endpoints/${endpoint.id}`, { token: otherAppToken })).status).toBe(404);
    expect(
      (
        await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, {
          token: otherAppToken,
          body: { replay: { after: receiver.delivered()[0]!.id } },
        })
      ).status,
    ).toBe(404);
  });

  it("replays the app's events to its endpoint, in order, with the same bodies", async () => {
    const delivered = receiver.delivered().map((event) => event.id);
    const before = receiver.received.length;
    const replayed = await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/replays`, { token: appToken, body: { replay: { after: delivered[0] } } });
    expect(replayed.status, replayed.text).toBe(200);
    expect(replayed.body.replay.queued).toBe(delivered.length - 1);
    await waitUntil(() => receiver.received.length === before + delivered.length - 1, 'the replay', 10_000);
    const firstBodies = new Map(receiver.received.slice(0, before).map((delivery) => [JSON.parse(delivery.body).event.id, delivery.body]));
    const again = receiver.received.slice(before);
    expect(new Set(again.map((delivery) => JSON.parse(delivery.body).event.id))).toEqual(new Set(delivered.slice(1)));
    for (const delivery of again) expect(delivery.body).toBe(firstBodies.get(JSON.parse(delivery.body).event.id));
  });
});

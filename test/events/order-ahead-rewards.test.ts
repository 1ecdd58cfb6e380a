/**
 * reward.earned from an order-ahead order (docs/events.md, "Loyalty events"): the settlement that completes
 * it records the reward and its event together, and the event goes to the app the user ordered through,
 * not the app the user registered through (nor the merchant). Through HTTP with the local state machines
 * and real receivers on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { appFixture } from '../support/fixtures.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';
import { createEndpoint, MERCHANT_EVENTS, startEventPipeline, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi(startOrderAheadTestApi);
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
const receivers: Receiver[] = [];

async function listener(token: string, events: string[]) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  return { receiver, endpoint: await createEndpoint(api, token, receiver.url, events) };
}

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
  for (const receiver of receivers) await receiver.close();
});

describe('reward.earned from an order-ahead order', () => {
  it('reaches the app the order was placed through, signed, once the order completes', async () => {
    const place = await orderAheadLocationFixture();
    const merchantId = place.merchant.merchant.merchant_id;
    await campaignFixture(merchantId, 'spend', { required_spend_amount: 300, earn_amount: 100 });
    // The user registered through one app and orders through the location's app.
    const registeredThrough = await appFixture({ global: true });
    const user = await orderAheadUserFixture(registeredThrough.app.app_id);
    await cardFixture(user.user.user_id);
    const orderingToken = await issueToken({
      subject: 'user',
      userId: user.user.user_id,
      appId: place.app.app_id,
      permissions: USER_PERMISSIONS,
      unlimited: false,
    });

    const orderingApp = await listener(await issueToken({ subject: 'app', appId: place.app.app_id }), ['reward.earned']);
    const registrationApp = await listener(await issueToken({ subject: 'app', appId: registeredThrough.app.app_id }), ['reward.earned']);
    const merchant = await listener(place.merchant.token, MERCHANT_EVENTS);

    const started = await api.call('POST', '/v15/order_ahead/orders', {
      token: orderingToken,
      body: {
        order: {
          location_id: place.location.location_id,
          conveyance: { fulfillment_type: 'pickup' },
          items: [{ item: { id: SAMPLE_IDS.tots, quantity: 1, option_ids: [SAMPLE_IDS.small] } }],
        },
      },
    });
    expect(started.status, started.text).toBe(200);
    const valid = await pollUntilSettled(api, started.body.order.order_url, orderingToken);
    expect(valid.last.status, valid.last.text).toBe(200);
    // Nothing is earned before the order is paid for.
    expect(orderingApp.receiver.received).toEqual([]);
    const submitted = await api.call('POST', valid.last.body.order.order_completion_url, { token: orderingToken });
    expect(submitted.status, submitted.text).toBe(202);
    const completed = await pollUntilSettled(api, submitted.body.order.order_url, orderingToken);
    expect(completed.last.status, completed.last.text).toBe(200);
    expect((await getBalance(creditAccountKey(user.user.user_id, merchantId))).balance).toBe(100);

    await waitUntil(() => orderingApp.receiver.delivered().length === 1, 'reward.earned at the ordering app', 15_000);
    await waitUntil(() => merchant.receiver.delivered().some((event) => event.type === 'order.completed'), 'order.completed at the merchant', 15_000);
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 15_000);
    const [earned] = orderingApp.receiver.delivered();
    expect(earned).toMatchObject({
      type: 'reward.earned',
      sequence: 1,
      resource: { type: 'reward' },
      data: { merchant_id: merchantId, value_amount: 100, earned: true },
    });
    const completedOrder = merchant.receiver.delivered().find((event) => event.type === 'order.completed')!;
    expect(earned!.data.order_uuid).toBe(completedOrder.resource.id);
    const delivery = orderingApp.receiver.received[0]!;
    expect(verifySignature(String(delivery.headers['levelup-signature']), delivery.body, orderingApp.endpoint.secret)).toBe(true);
    expect(registrationApp.receiver.received).toEqual([]);
    expect(merchant.receiver.delivered().filter((event) => event.type === 'reward.earned')).toEqual([]);
  });
});

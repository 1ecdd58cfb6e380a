/**
 * An event exists if and only if its change committed, and nothing is lost between the change and the
 * delivery: orders completed and refunded by retrying clients while 15% of DynamoDB calls fail (answers lost
 * after commit included), with the stream reader down while they happen (a crash between change and
 * delivery), then started again. Every committed order has exactly one order.completed, every refund one
 * order.refunded, no event names a change that did not commit, and the receiver gets every event, per
 * order in sequence order.
 */
process.env.DYNAMODB_FAULTS = 'rate=0.15,seed=17,kinds=throttle,500,timeout,after_commit,layer=call';
process.env.AWS_MAX_ATTEMPTS = '2';
process.env.WEBHOOK_TIME_SCALE = '0.01';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { table } from '#shared/db/client.ts';
import { scanAll } from '#shared/db/reads.ts';
import { setFaultsActive } from '#shared/db/faults.ts';
import { localClient } from '../../scripts/local/dynamodb-local.ts';
import { startLocalDeliveryQueue, type LocalQueue } from '../../scripts/local/delivery-queue.ts';
import { startLocalEventStream, type LocalEventStream } from '../../scripts/local/event-stream.ts';
import { startTestApi, useTestApi } from '../support/api.ts';
import { orderWorld, proposeBody, type OrderWorld } from '../support/money.ts';
import { createEndpoint, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';
import { callWithRetries, inParallel, newRetryLog } from '../faults/retrying-client.ts';

const ORDERS = 8;
const api = useTestApi(async () => {
  setFaultsActive(false);
  return startTestApi();
});
let world: OrderWorld;
let receiver: Receiver;
let queue: LocalQueue;
let stream: LocalEventStream | undefined;
const client = () => localClient(api.endpoint);

beforeAll(async () => {
  world = await orderWorld({ card: 'valid' });
  receiver = await startReceiver();
  await createEndpoint(api, world.merchant.token, receiver.url, ['order.completed', 'order.refunded']);
  queue = await startLocalDeliveryQueue();
});

afterAll(async () => {
  setFaultsActive(false);
  await stream?.stop();
  await queue?.stop();
  await receiver?.close();
});

describe('events under DynamoDB faults, with the stream reader down during the changes', () => {
  it('has exactly the events of the committed changes, and delivers them all in order once the reader is back', async () => {
    const log = newRetryLog();
    setFaultsActive(true);
    const orders = await inParallel(
      Array.from({ length: ORDERS }, (_, index) => index),
      3,
      async (index) => {
        const label = `events-faults-${index}`;
        const proposed = await callWithRetries(api, log, `propose ${label}`, 'POST', '/v15/proposed_orders', {
          token: world.merchant.token,
          headers: { 'Idempotency-Key': `${label}-propose` },
          body: proposeBody(world),
        });
        expect(proposed.status, proposed.text).toBe(200);
        const completed = await callWithRetries(api, log, `complete ${label}`, 'POST', '/v15/completed_orders', {
          token: world.merchant.token,
          headers: { 'Idempotency-Key': `${label}-complete` },
          body: {
            completed_order: {
              proposed_order_uuid: proposed.body.proposed_order.uuid,
              location_id: world.location.location_id,
              payment_token_data: world.user.user.payment_token_data,
              spend_amount: 1000,
              tax_amount: 0,
              applied_discount_amount: 0,
            },
          },
        });
        expect(completed.status, completed.text).toBe(200);
        const uuid = completed.body.order.uuid as string;
        if (index % 2 === 0) {
          const refund = await callWithRetries(api, log, `refund ${label}`, 'POST', `/v15/orders/${uuid}/refund`, {
            token: world.merchant.token,
            headers: { 'Idempotency-Key': `${label}-refund` },
            body: { refund: {} },
          });
          expect(refund.status, refund.text).toBe(200);
        }
        return uuid;
      },
    );

    // The reader comes back (from the start of the stream), still under faults: fan-out and delivery retry.
    stream = await startLocalEventStream({ endpoint: api.endpoint, client: client(), tableName: api.tableName, pollMs: 50 });
    setFaultsActive(false);
    const items = await scanAll({ TableName: table(), ConsistentRead: true });
    const committed = items.filter((item) => item.entity === 'Order');
    // The orders' events (the world's card is an event of its user's app, not of this merchant).
    const events = items.filter((item) => item.entity === 'Event' && item.resource_type === 'order');
    const refunded = committed.filter((order) => order.state === 'refunded').map((order) => order.uuid as string);
    expect(new Set(committed.map((order) => order.uuid))).toEqual(new Set(orders));
    const ofType = (type: string) => events.filter((event) => event.type === type).map((event) => event.resource_id as string);
    expect(ofType('order.completed').sort()).toEqual([...orders].sort());
    expect(ofType('order.refunded').sort()).toEqual([...refunded].sort());
    expect(refunded).toHaveLength(ORDERS / 2);

    setFaultsActive(true);
    await waitUntil(() => new Set(receiver.delivered().map((event) => event.id)).size === events.length, 'every event delivered', 60_000);
    setFaultsActive(false);
    for (const uuid of orders) {
      const firstArrivals = [
        ...new Map(
          receiver
            .delivered()
            .filter((event) => event.resource.id === uuid)
            .map((event) => [event.id, event.sequence]),
        ).values(),
      ];
      expect(firstArrivals).toEqual(refunded.includes(uuid) ? [1, 2] : [1]);
    }
  });
});

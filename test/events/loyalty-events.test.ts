import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { useTestApi } from '../support/api.ts';
import { loadGiftCard, orderWorld, type OrderWorld } from '../support/money.ts';
import { createEndpoint, MERCHANT_EVENTS, startEventPipeline, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

/**
 * The loyalty and gift card removal events (issue 17; docs/events.md, catalogue), through HTTP with real
 * receivers on loopback: each arrives signed, in sequence per resource, is listed by GET /v15/events for
 * its own tenant only, never reaches another merchant or app, and exists only when its change committed.
 */
process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi();
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let world: OrderWorld;
let other: OrderWorld;
let merchantReceiver: Receiver;
let otherReceiver: Receiver;
let merchantEndpoint: { id: string; secret: string };

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
  world = await orderWorld({ card: 'valid' });
  other = await orderWorld({ card: 'valid' });
  merchantReceiver = await startReceiver();
  otherReceiver = await startReceiver();
  merchantEndpoint = await createEndpoint(api, world.merchant.token, merchantReceiver.url, MERCHANT_EVENTS);
  await createEndpoint(api, other.merchant.token, otherReceiver.url, MERCHANT_EVENTS);
});

afterAll(async () => {
  await pipeline?.stop();
  await merchantReceiver?.close();
  await otherReceiver?.close();
});

type Delivered = ReturnType<Receiver['delivered']>[number];
const signed = (receiver: Receiver, secret: string, eventId: string) =>
  receiver.received.filter((delivery) => delivery.status < 300 && JSON.parse(delivery.body).event.id === eventId).every((delivery) => verifySignature(String(delivery.headers['levelup-signature']), delivery.body, secret));

/** Every event of the caller listed by GET /v15/events (following Link to the 204). */
async function listEvents(token: string, types?: string): Promise<Delivered[]> {
  const events: Delivered[] = [];
  let url: string | undefined = `/v15/events${types ? `?types=${types}` : ''}`;
  while (url) {
    const page: { status: number; body: { event: Delivered }[]; headers: Headers } = await api.call('GET', url, { token });
    if (page.status === 204) break;
    expect(page.status).toBe(200);
    events.push(...page.body.map((item) => item.event));
    url = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
  }
  return events;
}

describe('gift_card.value_removed', () => {
  const removalsPath = (target: OrderWorld) => `/v15/merchants/${target.merchant.merchant.merchant_id}/gift_card_value_removals`;
  const remove = (target: OrderWorld, removal: Record<string, unknown>) =>
    api.call('POST', removalsPath(target), { token: target.merchant.token, body: { gift_card_value_removal: { payment_token_data: target.user.user.payment_token_data, ...removal } } });

  it('reaches the merchant after the load, in sequence, signed, with the removal as answered; refused and repeated removals emit nothing', async () => {
    const merchantId = world.merchant.merchant.merchant_id;
    const userId = world.user.user.user_id;
    const loaded = await loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: world.user.user.payment_token_data, value_amount: 3000 });
    expect(loaded.status).toBe(200);
    const byAmount = await remove(world, { value_amount: 1000 });
    expect(byAmount.status).toBe(200);
    // Refused (more than the balance, not positive) and another merchant's attempt: nothing committed, no event.
    expect((await remove(world, { value_amount: 999_999 })).status).toBe(422);
    expect((await remove(world, { value_amount: 0 })).status).toBe(422);
    const foreign = await api.call('POST', removalsPath(world), { token: other.merchant.token, body: { gift_card_value_removal: { payment_token_data: world.user.user.payment_token_data, value_amount: 100 } } });
    expect(foreign.status).toBe(401);
    // Reversing the addition removes what is left of it; reversing it again answers the first removal and emits nothing.
    const reversal = await remove(world, { uuid: loaded.body.gift_card_value_addition.uuid });
    expect(reversal.status).toBe(200);
    expect((await remove(world, { uuid: loaded.body.gift_card_value_addition.uuid })).body).toEqual(reversal.body);

    const resourceId = `${merchantId}-${userId}`;
    await waitUntil(() => merchantReceiver.delivered().filter((event) => event.resource.id === resourceId).length >= 3, 'three gift card events', 10_000);
    await waitUntil(() => pipeline.queue.pending() === 0, 'the queue to drain', 10_000);
    const ofCard = merchantReceiver.delivered().filter((event) => event.resource.id === resourceId);
    expect(ofCard.map((event) => [event.type, event.sequence, event.resource.type])).toEqual([
      ['gift_card.value_added', 1, 'gift_card'],
      ['gift_card.value_removed', 2, 'gift_card'],
      ['gift_card.value_removed', 3, 'gift_card'],
    ]);
    expect(ofCard[1]!.data).toEqual({ ...byAmount.body.gift_card_value_removal, loyalty_id: userId });
    expect(ofCard[2]!.data).toEqual({ removed_value_amount: 2000, new_value_at_merchant_amount: 0, old_value_at_merchant_amount: 2000, loyalty_id: userId });
    for (const event of ofCard) expect(signed(merchantReceiver, merchantEndpoint.secret, event.id)).toBe(true);

    const listed = await listEvents(world.merchant.token, 'gift_card.value_removed');
    expect(listed.map((event) => event.id)).toEqual(ofCard.slice(1).map((event) => event.id));
    expect(otherReceiver.received.filter((delivery) => delivery.body.includes(resourceId))).toEqual([]);
    expect((await listEvents(other.merchant.token)).filter((event) => event.resource.id === resourceId)).toEqual([]);
  });
});

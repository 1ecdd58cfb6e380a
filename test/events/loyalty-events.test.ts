import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '#shared/auth/tokens.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { verifySignature } from '#shared/domain/events/signature.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, userFixture } from '../support/fixtures.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { loadGiftCard, orderWorld, placeOrder, type OrderWorld } from '../support/money.ts';
import { createEndpoint, listAllEvents, merchantEventWorlds, startReceiver, waitUntil, type Receiver } from '../support/webhooks.ts';

/**
 * The loyalty and gift card removal events (issue 17; docs/events.md, catalogue), through HTTP with real
 * receivers on loopback: each arrives signed, in sequence per resource, is listed by GET /v15/events for
 * its own tenant only, never reaches another merchant or app, and exists only when its change committed.
 */
process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi();
let worlds: Awaited<ReturnType<typeof merchantEventWorlds>>;
let world: OrderWorld;
let other: OrderWorld;
let merchantReceiver: Receiver;
let otherReceiver: Receiver;

beforeAll(async () => {
  worlds = await merchantEventWorlds(api);
  ({ world, other, receiver: merchantReceiver, otherReceiver } = worlds);
});

afterAll(() => worlds?.stop());

type Delivered = ReturnType<Receiver['delivered']>[number];
const signed = (receiver: Receiver, secret: string, eventId: string) =>
  receiver.received
    .filter((delivery) => delivery.status < 300 && JSON.parse(delivery.body).event.id === eventId)
    .every((delivery) => verifySignature(String(delivery.headers['levelup-signature']), delivery.body, secret));

/** Until the event pipeline's queue has nothing pending. */
const queueDrained = () => waitUntil(() => worlds.pipeline.queue.pending() === 0, 'the queue to drain', 10_000);

/** Every event of the caller listed by GET /v15/events (following Link to the 204). */
const listEvents = (token: string, types?: string): Promise<Delivered[]> => listAllEvents(api, token, types);

describe('gift_card.value_removed', () => {
  const removalsPath = (target: OrderWorld) => `/v15/merchants/${target.merchant.merchant.merchant_id}/gift_card_value_removals`;
  const remove = (target: OrderWorld, removal: Record<string, unknown>) =>
    api.call('POST', removalsPath(target), {
      token: target.merchant.token,
      body: { gift_card_value_removal: { payment_token_data: target.user.user.payment_token_data, ...removal } },
    });

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
    const foreign = await api.call('POST', removalsPath(world), {
      token: other.merchant.token,
      body: { gift_card_value_removal: { payment_token_data: world.user.user.payment_token_data, value_amount: 100 } },
    });
    expect(foreign.status).toBe(401);
    // Reversing the addition removes what is left of it; reversing it again answers the first removal and emits nothing.
    const reversal = await remove(world, { uuid: loaded.body.gift_card_value_addition.uuid });
    expect(reversal.status).toBe(200);
    expect((await remove(world, { uuid: loaded.body.gift_card_value_addition.uuid })).body).toEqual(reversal.body);

    const resourceId = `${merchantId}-${userId}`;
    await waitUntil(() => merchantReceiver.delivered().filter((event) => event.resource.id === resourceId).length >= 3, 'three gift card events', 10_000);
    await queueDrained();
    const ofCard = merchantReceiver.delivered().filter((event) => event.resource.id === resourceId);
    expect(ofCard.map((event) => [event.type, event.sequence, event.resource.type])).toEqual([
      ['gift_card.value_added', 1, 'gift_card'],
      ['gift_card.value_removed', 2, 'gift_card'],
      ['gift_card.value_removed', 3, 'gift_card'],
    ]);
    expect(ofCard[1]!.data).toEqual({ ...byAmount.body.gift_card_value_removal, loyalty_id: userId });
    expect(ofCard[2]!.data).toEqual({ removed_value_amount: 2000, new_value_at_merchant_amount: 0, old_value_at_merchant_amount: 2000, loyalty_id: userId });
    for (const event of ofCard) expect(signed(merchantReceiver, worlds.endpoint.secret, event.id)).toBe(true);

    const listed = await listEvents(world.merchant.token, 'gift_card.value_removed');
    expect(listed.map((event) => event.id)).toEqual(ofCard.slice(1).map((event) => event.id));
    expect(otherReceiver.received.filter((delivery) => delivery.body.includes(resourceId))).toEqual([]);
    expect((await listEvents(other.merchant.token)).filter((event) => event.resource.id === resourceId)).toEqual([]);
  });
});

/** An app's own token and a receiver subscribed to its users' loyalty events. */
async function appListener(appId: number) {
  const token = await issueToken({ subject: 'app', appId });
  const receiver = await startReceiver();
  const endpoint = await createEndpoint(api, token, receiver.url, ['reward.earned', 'claim.created']);
  return { appId, token, receiver, endpoint };
}

describe('reward.earned and claim.created', () => {
  let userApp: Awaited<ReturnType<typeof appListener>>;
  let strangerApp: Awaited<ReturnType<typeof appListener>>;

  beforeAll(async () => {
    userApp = await appListener(world.app.app_id);
    strangerApp = await appListener((await appFixture({ global: true })).app.app_id);
  });

  afterAll(async () => {
    await userApp?.receiver.close();
    await strangerApp?.receiver.close();
  });

  const adjust = (target: OrderWorld, fields: Record<string, unknown>) =>
    api.call('POST', '/v15/progress_adjustments', {
      authorization: `token merchant="${target.merchant.token}"`,
      body: { progress_adjustment: { adjustment: 1, user_id: target.user.user.user_id, ...fields } },
    });

  it("announces each reward an order or a progress adjustment earns to the user's app, signed, with the reward as the rewards list shows it", async () => {
    const merchantId = world.merchant.merchant.merchant_id;
    const spend = await campaignFixture(merchantId, 'spend', { required_spend_amount: 1000, earn_amount: 150, reward_title: '$1.50 credit' });
    // A declined order and a refused adjustment commit nothing: no reward, no event.
    const declining = { ...world, user: await userFixture(world.app.app_id) };
    await addCreditCard(declining.user.user.user_id, `fake-declines-nonce-${randomUUID()}`);
    expect((await placeOrder(api, declining, { spend_amount: 2000 })).status).toBe(422);
    expect((await adjust(other, { campaign_id: spend.campaign_id, adjustment: 5000 })).status).toBe(401);

    const order = await placeOrder(api, world, { spend_amount: 1000 });
    expect(order.status, order.text).toBe(200);
    expect((await adjust(world, { campaign_id: spend.campaign_id, adjustment: 1000 })).status).toBe(204);
    // A spend below the requirement earns nothing.
    expect((await placeOrder(api, world, { spend_amount: 100 })).status).toBe(200);

    await waitUntil(() => userApp.receiver.delivered().filter((event) => event.type === 'reward.earned').length >= 2, 'two reward.earned', 10_000);
    await queueDrained();
    const earned = userApp.receiver.delivered().filter((event) => event.type === 'reward.earned');
    expect(earned).toHaveLength(2);
    const rewards = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token: world.user.token });
    const held = new Map(rewards.body.map((entry: { reward: { id: string } }) => [entry.reward.id, entry.reward]));
    for (const event of earned) {
      expect(event.resource.type).toBe('reward');
      expect(event.sequence).toBe(1);
      const { usable_now: _moment, ...shown } = held.get(event.resource.id) as Record<string, unknown>;
      expect(event.data).toEqual({ ...shown, merchant_id: merchantId, order_uuid: expect.toBeOneOf([null, expect.any(String)]) });
      expect(event.data).toMatchObject({ value_amount: 150, earned: true, title: '$1.50 credit', source_campaign_id: spend.campaign_id });
      expect(signed(userApp.receiver, userApp.endpoint.secret, event.id)).toBe(true);
    }
    expect(earned.map((event) => event.data.order_uuid)).toEqual([order.body.order.uuid, null]);

    // The merchant is not the audience; a stranger app neither receives nor lists them.
    expect(merchantReceiver.delivered().filter((event) => event.type === 'reward.earned')).toEqual([]);
    expect(strangerApp.receiver.received).toEqual([]);
    expect((await api.call('GET', '/v15/events', { token: strangerApp.token })).status).toBe(204);
    expect((await listEvents(userApp.token, 'reward.earned')).map((event) => event.id)).toEqual(earned.map((event) => event.id));
  });

  it("tells an in-store shopper's own app (not the POS's), and only when that app serves the merchant", async () => {
    const merchantId = other.merchant.merchant.merchant_id;
    const servingApp = await appListener((await appFixture({ global: false, merchantIds: [merchantId] })).app.app_id);
    const elsewhereApp = await appListener((await appFixture({ global: false, merchantIds: [] })).app.app_id);
    // The POS's token is of `other.app`: it is not the shopper's app.
    const posApp = await appListener(other.app.app_id);
    try {
      await campaignFixture(merchantId, 'spend', { required_spend_amount: 500, earn_amount: 100 });
      const shopperOf = async (appId: number) => {
        const shopper = { ...other, user: await userFixture(appId) };
        await addCreditCard(shopper.user.user.user_id, `fake-valid-nonce-${randomUUID()}`);
        const order = await placeOrder(api, shopper, { spend_amount: 500 });
        expect(order.status, order.text).toBe(200);
        // The reward was earned either way (its credit is on the shopper's account).
        expect((await getBalance(creditAccountKey(shopper.user.user.user_id, merchantId))).balance).toBe(100);
        return order.body.order.uuid as string;
      };
      const servedOrder = await shopperOf(servingApp.appId);
      const elsewhereOrder = await shopperOf(elsewhereApp.appId);
      await waitUntil(() => servingApp.receiver.delivered().length === 1, "the serving app's reward.earned", 10_000);
      await waitUntil(() => otherReceiver.delivered().some((event) => event.resource.id === elsewhereOrder), 'the second order at the merchant', 10_000);
      await queueDrained();
      expect(servingApp.receiver.delivered().map((event) => [event.type, event.data.order_uuid, event.data.merchant_id])).toEqual([
        ['reward.earned', servedOrder, merchantId],
      ]);
      expect(elsewhereApp.receiver.received).toEqual([]);
      expect(posApp.receiver.received).toEqual([]);
      // (It lists its shopper's credit_card.created: the card is the user's, and this is the app the user registered through.)
      expect((await api.call('GET', '/v15/events?types=reward.earned,claim.created', { token: elsewhereApp.token })).status).toBe(204);
    } finally {
      for (const listener of [servingApp, elsewhereApp, posApp]) await listener.receiver.close();
    }
  });

  it('announces a claim to the claiming app once; a refused claim emits nothing', async () => {
    const merchantId = world.merchant.merchant.merchant_id;
    const promotion = await campaignFixture(merchantId, 'value', { cohort_code: uniqueCode('EVT'), value_amount: 250 });
    const claimed = await api.call('POST', `/v15/codes/${promotion.cohort_code}/claims`, { token: world.user.token });
    expect(claimed.status, claimed.text).toBe(200);
    const again = await api.call('POST', `/v15/codes/${promotion.cohort_code}/claims`, { token: world.user.token });
    expect(again.status).toBe(422);
    // Another merchant's user through another app cannot claim a code its app does not serve... and the unknown code is 404.
    expect((await api.call('POST', `/v15/codes/${uniqueCode('NONE')}/claims`, { token: world.user.token })).status).toBe(404);

    const resourceId = `${promotion.campaign_id}-${world.user.user.user_id}`;
    await waitUntil(
      () => userApp.receiver.delivered().some((event) => event.type === 'claim.created' && event.resource.id === resourceId),
      'claim.created',
      10_000,
    );
    await queueDrained();
    const claims = userApp.receiver.delivered().filter((event) => event.type === 'claim.created');
    expect(claims.map((event) => [event.resource.type, event.resource.id, event.sequence])).toEqual([['claim', resourceId, 1]]);
    expect(claims[0]!.data).toEqual({ ...claimed.body.claim, merchant_id: merchantId, user_id: world.user.user.user_id });
    expect(signed(userApp.receiver, userApp.endpoint.secret, claims[0]!.id)).toBe(true);
    expect((await listEvents(userApp.token, 'claim.created')).map((event) => event.id)).toEqual([claims[0]!.id]);
    expect(strangerApp.receiver.received).toEqual([]);
    expect(merchantReceiver.delivered().filter((event) => event.type === 'claim.created')).toEqual([]);
  });
});

describe('campaign.unlocked', () => {
  const unlock = (token: string, body: Record<string, unknown>) => api.call('POST', '/v15/campaign_unlockings', { token, body: { campaign_unlocking: body } });

  it('reaches the merchant for each unlocking, in sequence per campaign and user, signed; refused unlockings emit nothing', async () => {
    const merchantId = world.merchant.merchant.merchant_id;
    const locked = await campaignFixture(merchantId, 'spend', { locked: true });
    const user = world.user.user;
    // Refused: another merchant's token, an unknown user, an expiry in the past, a mismatched email.
    expect((await unlock(other.merchant.token, { target_campaign_id: locked.campaign_id, user_id: user.user_id })).status).toBe(401);
    expect((await unlock(world.merchant.token, { target_campaign_id: locked.campaign_id, user_id: 987_654_321 })).status).toBe(422);
    expect(
      (await unlock(world.merchant.token, { target_campaign_id: locked.campaign_id, user_id: user.user_id, expires_at: '2001-01-01T00:00:00Z' })).status,
    ).toBe(422);
    expect((await unlock(world.merchant.token, { target_campaign_id: locked.campaign_id, user_id: user.user_id, email: other.user.email })).status).toBe(422);

    expect((await unlock(world.merchant.token, { target_campaign_id: locked.campaign_id, user_id: user.user_id })).status).toBe(204);
    // Unlocking again (by email, to extend it) replaces the unlocking: the next event of the same resource.
    expect((await unlock(world.merchant.token, { target_campaign_id: locked.campaign_id, email: world.user.email, expires_at: '12/31/2099' })).status).toBe(
      204,
    );

    const resourceId = `${locked.campaign_id}-${user.user_id}`;
    await waitUntil(() => merchantReceiver.delivered().filter((event) => event.resource.id === resourceId).length >= 2, 'two campaign.unlocked', 10_000);
    await queueDrained();
    const unlocked = merchantReceiver.delivered().filter((event) => event.resource.id === resourceId);
    expect(unlocked.map((event) => [event.type, event.resource.type, event.sequence])).toEqual([
      ['campaign.unlocked', 'campaign_unlock', 1],
      ['campaign.unlocked', 'campaign_unlock', 2],
    ]);
    expect(unlocked[0]!.data).toEqual({ target_campaign_id: locked.campaign_id, user_id: user.user_id, expires_at: null, unlocked_at: expect.any(String) });
    expect(unlocked[1]!.data).toEqual({
      target_campaign_id: locked.campaign_id,
      user_id: user.user_id,
      expires_at: '2100-01-01T00:00:00+00:00',
      unlocked_at: expect.any(String),
    });
    for (const event of unlocked) expect(signed(merchantReceiver, worlds.endpoint.secret, event.id)).toBe(true);
    expect((await listEvents(world.merchant.token, 'campaign.unlocked')).filter((event) => event.resource.id === resourceId).map((event) => event.id)).toEqual(
      unlocked.map((event) => event.id),
    );
    expect(otherReceiver.received.filter((delivery) => delivery.body.includes('campaign.unlocked'))).toEqual([]);
    expect(await listEvents(other.merchant.token, 'campaign.unlocked')).toEqual([]);
  });

  it('gives concurrent unlockings of one campaign and user one event each, numbered 1..n without gaps', async () => {
    const target = await orderWorld({ card: 'none' });
    const locked = await campaignFixture(target.merchant.merchant.merchant_id, 'visit', { locked: true });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => unlock(target.merchant.token, { target_campaign_id: locked.campaign_id, user_id: target.user.user.user_id })),
    );
    for (const answer of answers) expect([204, 409]).toContain(answer.status);
    const committed = answers.filter((answer) => answer.status === 204).length;
    expect(committed).toBeGreaterThan(0);
    const listed = await listEvents(target.merchant.token, 'campaign.unlocked');
    expect(listed.map((event) => event.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: committed }, (_, index) => index + 1));
    expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.headers.get('retry-after') !== null)).toBe(true);
  });
});

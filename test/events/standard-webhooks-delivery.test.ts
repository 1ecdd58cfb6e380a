/**
 * Standard Webhooks (issue 37): every real delivery, through the local stack's delivery path, carries
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` that the `standardwebhooks` package's own verifier
 * accepts with the secret the API answered, beside the unchanged `LevelUp-Signature` (docs/events.md).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStoredAttributes } from '../support/stored-items.ts';
import { keys } from '#shared/db/keys.ts';
import { standardWebhooksSecret, verifySignature } from '#shared/domain/events/signature.ts';
import { useTestApi } from '../support/api.ts';
import { loadGiftCard, orderWorld, type OrderWorld } from '../support/money.ts';
import { createEndpoint, startEventPipeline, startReceiver, waitUntil, withReceiver, type ReceivedDelivery, type Receiver } from '../support/webhooks.ts';

process.env.WEBHOOK_TIME_SCALE = '0.02';
const api = useTestApi();
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;
let receiver: Receiver;

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
  receiver = await startReceiver();
});

afterAll(async () => {
  await pipeline?.stop();
  await receiver?.close();
});

/** The delivery's headers as a receiver's framework hands them over (node lower-cases names). */
const headersOf = (delivery: ReceivedDelivery) => Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));

const loadOnce = (target: OrderWorld) =>
  loadGiftCard(api, target.merchant.token, target.merchant.merchant.merchant_id, {
    payment_token_data: target.user.user.payment_token_data,
    value_amount: 1000,
    external_identifier: `load-${randomUUID()}`,
  });

/** A fresh merchant whose endpoint on `to` receives its gift card loads. */
async function merchantWithEndpoint(to: Receiver) {
  const target = await orderWorld({ card: 'valid' });
  const endpoint = await createEndpoint(api, target.merchant.token, to.url, ['gift_card.value_added']);
  return { target, endpoint };
}

describe('Standard Webhooks headers on a delivery', () => {
  it("verify with the package's own verifier and the secret the API answered, beside LevelUp-Signature", async () => {
    const { target, endpoint } = await merchantWithEndpoint(receiver);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await loadOnce(target)).status).toBe(200);
    await waitUntil(() => receiver.delivered().length === 1, 'the delivery');
    const delivery = receiver.received[0]!;
    const headers = headersOf(delivery);

    const verified = new Webhook(endpoint.secret).verify(delivery.body, headers) as { event: { id: string; type: string } };
    expect(verified.event.type).toBe('gift_card.value_added');
    expect(headers['webhook-id']).toBe(verified.event.id);
    expect(headers['levelup-event-id']).toBe(verified.event.id);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifySignature(headers['levelup-signature']!, delivery.body, endpoint.secret)).toBe(true);

    // What a receiver must refuse: another secret, a changed body, a changed id.
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(delivery.body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(endpoint.secret).verify(delivery.body.replace('1000', '9000'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(endpoint.secret).verify(delivery.body, { ...headers, 'webhook-id': 'evt_other' })).toThrow(WebhookVerificationError);
  });

  it('keep the same webhook-id on a retry, each attempt signed afresh and verifying', () =>
    withReceiver(async (flaky) => {
      const { target, endpoint } = await merchantWithEndpoint(flaky);
      flaky.answerWith((_delivery, index) => (index === 0 ? 500 : 200));
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => flaky.delivered().length === 1, 'the second attempt', 30_000);
      const attempts = flaky.received.map(headersOf);
      expect(flaky.received.map((attempt) => attempt.status)).toEqual([500, 200]);
      expect(new Set(attempts.map((headers) => headers['webhook-id'])).size).toBe(1);
      for (const [index, headers] of attempts.entries()) expect(new Webhook(endpoint.secret).verify(flaky.received[index]!.body, headers)).toBeTruthy();
    }));

  it('carry one v1 signature per secret while a rolled secret overlaps: the old and the new verify', () =>
    withReceiver(async (rolled) => {
      const { target, endpoint } = await merchantWithEndpoint(rolled);
      const roll = await api.call('POST', `/v15/webhook_endpoints/${endpoint.id}/secrets`, { token: target.merchant.token });
      expect(roll.status).toBe(200);
      const secret = roll.body.webhook_endpoint.secret as string;
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => rolled.delivered().length === 1, 'the delivery');
      const delivery = rolled.received[0]!;
      const headers = headersOf(delivery);
      expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(new Webhook(secret).verify(delivery.body, headers)).toBeTruthy();
      expect(new Webhook(endpoint.secret).verify(delivery.body, headers)).toBeTruthy();
    }));

  it('sign for an endpoint made before, whose secret is base64url: its standard-base64 form verifies, LevelUp-Signature as before', () =>
    withReceiver(async (older) => {
      const { target, endpoint } = await merchantWithEndpoint(older);
      // The secret format endpoints were given before: base64url without padding ("-_-_" forces both URL-safe letters).
      const legacySecret = `whsec_${Buffer.concat([Buffer.from([0xfb, 0xff, 0xbf]), randomBytes(29)]).toString('base64url')}`;
      await setStoredAttributes(keys.webhookEndpoint(endpoint.id), { secrets: [{ secret: legacySecret, expires_at: null }] });
      expect((await loadOnce(target)).status).toBe(200);
      await waitUntil(() => older.delivered().length === 1, 'the delivery');
      const delivery = older.received[0]!;
      const headers = headersOf(delivery);
      const converted = standardWebhooksSecret(legacySecret);
      expect(converted).toBe(`whsec_${legacySecret.slice('whsec_'.length).replaceAll('-', '+').replaceAll('_', '/')}=`);
      expect(new Webhook(converted).verify(delivery.body, headers)).toBeTruthy();
      expect(verifySignature(headers['levelup-signature']!, delivery.body, legacySecret)).toBe(true);
    }));
});

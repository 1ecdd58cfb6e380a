/**
 * I17-I18 of the SDK reference through HTTP with the iOS bodies (push-notification devices), and the
 * notifications an app user expects, sent from the table's stream by the same function AWS runs, through the
 * push sandbox (shared/push/sandbox.ts): order ahead ready and rejected, reward earned, gift card received.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { issueToken } from '#shared/auth/tokens.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { MAX_PUSH_DEVICES_PER_USER, userDevices } from '#shared/domain/notifications/devices.ts';
import { SANDBOX_UNREACHABLE_TOKEN_PREFIX } from '#shared/push/sandbox.ts';
import { SANDBOX_PROVIDERS } from '#shared/ordering/sandbox.ts';
import { USER_PERMISSIONS } from '#shared/routes.ts';
import { streamHandler } from '../../functions/events-stream.ts';
import { useTestApi } from '../support/api.ts';
import { cardFixture } from '../support/cards.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { snapshotTable, tableChanges } from '../support/fuzz.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { loadGiftCard, orderWorld, placeOrder } from '../support/money.ts';
import { orderAheadLocationFixture, orderAheadUserFixture, pollLikeIos, pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';
import { clientPayload } from '../support/payloads.ts';
import { usePushSandbox } from '../support/push.ts';
import { startEventPipeline, tableStreamRecords } from '../support/webhooks.ts';

const pushes = usePushSandbox();
const api = useTestApi(() => startOrderAheadTestApi({ retryIntervalMs: 10 }));
const ios = clientPayload('ios_v15_apn_devices__create_delete.json');
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;

beforeAll(async () => {
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
});

/** A 32-byte APNs token as iOS sends it (upper-case hex). */
const apnToken = (prefix = '') => (prefix + randomBytes(32).toString('hex').toUpperCase()).slice(0, 64);

/** The iOS body of POST /v15/apn_devices with this app key and device token. */
function register(userToken: string | undefined, apiKey: string | undefined, token: string, extra: Record<string, unknown> = {}) {
  return api.call('POST', '/v15/apn_devices', {
    token: userToken,
    body: { ...ios.request_body, api_key: apiKey, apn_device: { ...ios.request_body.apn_device, device_identifier: randomUUID(), token, ...extra } },
  });
}

const storedDevice = async (appId: number, token: string) => (await readItems([keys.pushDevice(appId, token)], { consistent: true }))[0];

describe('I17-I18 POST and DELETE /v15/apn_devices', () => {
  it("stores the iOS body's device for the signed-in user and app; without a user token stores nothing (204); DELETE with the api_key in the query forgets it", async () => {
    const { app, apiKey } = await appFixture();
    const user = await userFixture(app.app_id);
    const sample = ios.request_body.apn_device.token as string;
    const created = await register(user.token, apiKey, sample);
    expect(created.status, created.text).toBe(200);
    expect(created.body.apn_device).toMatchObject({ token: sample, sandbox: true, user_id: user.user.user_id, app_id: app.app_id });
    expect((await userDevices(user.user.user_id)).map((device) => [device.token, device.platform])).toEqual([[sample, 'apns_sandbox']]);
    // Any case is accepted; stored as iOS sends it, upper-case.
    const lower = await register(user.token, apiKey, 'abcdef0123456789', { sandbox: false });
    expect(lower.status).toBe(200);
    expect(lower.body.apn_device.token).toBe('ABCDEF0123456789');

    const before = await snapshotTable();
    const anonymous = await register(undefined, apiKey, apnToken());
    expect(anonymous.status).toBe(204);
    expect(anonymous.text).toBe('');
    expect(tableChanges(before, await snapshotTable())).toEqual([]);

    // As iOS after signing out: no user token, the key in the query; a repeat is still 204.
    for (let attempt = 0; attempt < 2; attempt++) {
      const deleted = await api.call('DELETE', `/v15/apn_devices/${sample}?api_key=${encodeURIComponent(apiKey)}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
    }
    expect(await storedDevice(app.app_id, sample)).toBeUndefined();
    expect((await userDevices(user.user.user_id)).map((device) => device.token)).toEqual(['ABCDEF0123456789']);
  });

  it("refuses what it cannot store with 422 in the error format, changing nothing; another app's device is out of reach", async () => {
    const { app, apiKey } = await appFixture();
    const other = await appFixture();
    const user = await userFixture(app.app_id);
    const before = await snapshotTable();
    const cases: [Promise<Awaited<ReturnType<typeof register>>>, string][] = [
      [register(user.token, 'not-a-key', apnToken()), 'api_key'],
      [register(user.token, other.apiKey, apnToken()), 'api_key'],
      [register(undefined, undefined, apnToken()), 'api_key'],
      [register(user.token, apiKey, 'XYZ123'), 'token'],
      [register(user.token, apiKey, 'ABC'), 'token'],
      [register(user.token, apiKey, 'AB'.repeat(101)), 'token'],
      [register(user.token, apiKey, apnToken(), { device_identifier: 'd'.repeat(256) }), 'device_identifier'],
      [register(user.token, apiKey, apnToken(), { sandbox: 'yes' }), 'sandbox'],
    ];
    for (const [pending, property] of cases) {
      const response = await pending;
      expect(response.status, `${property}: ${response.text}`).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: 'apn_device', property });
    }
    expect(tableChanges(before, await snapshotTable())).toEqual([]);
    // DELETE: a token that is not APNs hex is not a device (404); the key of another app cannot reach this app's device.
    const token = apnToken();
    expect((await register(user.token, apiKey, token)).status).toBe(200);
    expect((await api.call('DELETE', `/v15/apn_devices/not-hex?api_key=${apiKey}`)).status).toBe(404);
    expect((await api.call('DELETE', `/v15/apn_devices/${token}?api_key=${other.apiKey}`)).status).toBe(204);
    expect(await storedDevice(app.app_id, token)).toBeDefined();
    expect((await api.call('DELETE', `/v15/apn_devices/${token}?api_key=nope`)).status).toBe(422);
  });

  it(`keeps at most ${MAX_PUSH_DEVICES_PER_USER} devices a user, dropping the oldest; a token registered again by another user moves to them`, async () => {
    const { app, apiKey } = await appFixture();
    const user = await userFixture(app.app_id);
    const tokens = Array.from({ length: MAX_PUSH_DEVICES_PER_USER + 2 }, () => apnToken());
    for (const token of tokens) expect((await register(user.token, apiKey, token)).status).toBe(200);
    expect((await userDevices(user.user.user_id)).map((device) => device.token).sort()).toEqual(tokens.slice(2).sort());
    const next = await userFixture(app.app_id);
    expect((await register(next.token, apiKey, tokens.at(-1)!)).status).toBe(200);
    expect((await userDevices(next.user.user_id)).map((device) => device.token)).toEqual([tokens.at(-1)]);
    expect((await userDevices(user.user.user_id)).map((device) => device.token)).not.toContain(tokens.at(-1));
  });
});

describe('notifications through the push sandbox', () => {
  it('tells the order-ahead customer, on the devices of the app the order was placed through, that the order is ready, or that it was rejected', async () => {
    const { app, apiKey } = await appFixture({ global: true });
    const merchant = await merchantFixture(app.app_id);
    const accepts = await orderAheadLocationFixture({ provider: SANDBOX_PROVIDERS.accepts, within: { app, merchant } });
    const rejects = await orderAheadLocationFixture({ provider: SANDBOX_PROVIDERS.rejects, within: { app, merchant } });
    const customer = await orderAheadUserFixture(app.app_id);
    await cardFixture(customer.user.user_id);
    const device = apnToken();
    expect((await register(customer.token, apiKey, device, { sandbox: false })).status).toBe(200);
    // The same user's device through another app is not told about an order placed through this one.
    const elsewhere = await appFixture({ global: true });
    const elsewhereToken = await issueToken({
      subject: 'user',
      userId: customer.user.user_id,
      appId: elsewhere.app.app_id,
      permissions: USER_PERMISSIONS,
      unlimited: false,
    });
    expect((await register(elsewhereToken, elsewhere.apiKey, apnToken())).status).toBe(200);

    const placeAt = async (locationId: number) => {
      const started = await api.call('POST', '/v15/order_ahead/orders', {
        token: customer.token,
        body: {
          order: {
            location_id: locationId,
            conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
            items: [{ item: { id: SAMPLE_IDS.tots, quantity: 1, special_instructions: null, option_ids: [SAMPLE_IDS.small] } }],
            special_instructions: null,
            tip_amount: 0,
          },
        },
      });
      expect(started.status, started.text).toBe(200);
      const { last: valid } = await pollUntilSettled(api, started.body.order.order_url, customer.token);
      expect(valid.status, valid.text).toBe(200);
      const submitted = await api.call('POST', valid.body.order.order_completion_url, { token: customer.token });
      expect(submitted.status, submitted.text).toBe(202);
      const { last } = await pollLikeIos(api, submitted.body.order.order_url, customer.token);
      return { uuid: started.body.order.uuid as string, last };
    };

    const ready = await placeAt(accepts.location.location_id);
    expect(ready.last.status, ready.last.text).toBe(200);
    const [readyPush] = await pushes.to(customer.user.user_id, 'order_ahead.ready');
    expect(readyPush).toMatchObject({
      platform: 'apns',
      token: device,
      app_id: app.app_id,
      title: merchant.merchant.name,
      notification_id: `order_ahead.ready:${ready.uuid}`,
    });
    expect(readyPush!.body).toMatch(/^Your order is confirmed and will be ready in about \d+ minutes?\.$/);
    expect(readyPush!.payload).toMatchObject({
      aps: { alert: { title: merchant.merchant.name, body: readyPush!.body } },
      kind: 'order_ahead.ready',
      order_uuid: ready.uuid,
    });

    const rejected = await placeAt(rejects.location.location_id);
    expect(rejected.last.status).toBe(422);
    const [rejectedPush] = await pushes.to(customer.user.user_id, 'order_ahead.rejected');
    expect(rejectedPush).toMatchObject({ token: device, app_id: app.app_id, notification_id: `order_ahead.rejected:${rejected.uuid}` });
    expect(rejectedPush!.body).toContain(rejected.last.body[0].error.message);
    expect(rejectedPush!.body).toMatch(/(You were not charged|Your payment was given back)\.$/);
    expect(
      pushes
        .all()
        .filter((push) => push.user_id === customer.user.user_id)
        .map((push) => push.token),
    ).toEqual([device, device]);
  });

  it('tells a user who earned a reward, on the devices of apps serving the merchant only; the gift card recipient too; an unreachable device is dropped; a replayed stream sends nothing again', async () => {
    const world = await orderWorld({ card: 'valid' });
    const merchantId = world.merchant.merchant.merchant_id;
    await campaignFixture(merchantId, 'spend', { required_spend_amount: 1000, earn_amount: 150, reward_title: '$1.50 credit' });
    const shopperDevice = apnToken();
    expect((await register(world.user.token, undefined, shopperDevice)).status).toBe(200);
    const notServing = await appFixture({ global: false, merchantIds: [] });
    const notServingToken = await issueToken({
      subject: 'user',
      userId: world.user.user.user_id,
      appId: notServing.app.app_id,
      permissions: USER_PERMISSIONS,
      unlimited: false,
    });
    expect((await register(notServingToken, notServing.apiKey, apnToken())).status).toBe(200);

    const order = await placeOrder(api, world, { spend_amount: 1000 });
    expect(order.status, order.text).toBe(200);
    const earned = await pushes.to(world.user.user.user_id, 'reward.earned');
    expect(earned).toHaveLength(1);
    expect(earned[0]).toMatchObject({ token: shopperDevice, app_id: world.app.app_id, title: world.merchant.merchant.name, body: 'You earned $1.50 credit!' });

    // The gift: the buyer is the shopper, the recipient has a live device and one the push service calls gone.
    const recipient = await userFixture(world.app.app_id);
    const live = apnToken();
    const gone = apnToken(SANDBOX_UNREACHABLE_TOKEN_PREFIX);
    expect((await register(recipient.token, undefined, live)).status).toBe(200);
    expect((await register(recipient.token, undefined, gone)).status).toBe(200);
    const gift = await api.call('POST', '/v15/users/gift_card_value_orders', {
      token: world.user.token,
      body: { gift_card_value_order: { merchant_id: merchantId, recipient_email: recipient.email, value_amount: 2500 } },
    });
    expect(gift.status, gift.text).toBe(200);
    const received = await pushes.to(recipient.user.user_id, 'gift_card.received');
    expect(received.map((push) => push.token)).toEqual([live]);
    expect(received[0]).toMatchObject({
      title: world.merchant.merchant.name,
      body: `You received a $25.00 gift card. It is in your wallet at ${world.merchant.merchant.name}.`,
      payload: { merchant_id: merchantId, value_amount: 2500 },
    });
    // The gone device is dropped after the live one's push is out (one batch, devices in turn): wait for the drop.
    await expect.poll(() => storedDevice(world.app.app_id, gone), { timeout: 15_000 }).toBeUndefined();
    // Value loaded at the till is the user's own purchase at the counter: no push.
    expect(
      (await loadGiftCard(api, world.merchant.token, merchantId, { payment_token_data: recipient.user.payment_token_data, value_amount: 1000 })).status,
    ).toBe(200);

    // Everything the stream held, handed to the function again (a retried batch): nothing is pushed twice.
    const count = pushes.all().length;
    await streamHandler({ Records: await tableStreamRecords(api) } as DynamoDBStreamEvent);
    expect(pushes.all()).toHaveLength(count);
    expect(await pushes.to(recipient.user.user_id, 'gift_card.received', { timeoutMs: 0 })).toHaveLength(1);
    expect(pushes.all().filter((push) => push.app_id === notServing.app.app_id)).toEqual([]);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

/**
 * Gift card value orders (SDK reference A17) through HTTP with the iOS body: the buyer's card is charged once,
 * the recipient's value at the merchant goes up by the amount, the ledger audits to 0; an Idempotency-Key retry
 * answers the first order without a second charge. The recipient's email is a mail item of the order's own
 * transaction, sent after the answer by the stream function (DynamoDB Local's stream, the SES v2 emulator):
 * exactly one email per committed order, none for an order that does not commit, none again on a replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { observeGateway } from '../support/gateway.ts';
import { mailTo } from '../support/mailbox.ts';
import { startEventPipeline, tableStreamRecords } from '../support/webhooks.ts';
import { streamHandler } from '../../functions/events-stream.ts';
import { table } from '#shared/db/client.ts';
import { keys, MAIL_PREFIX } from '#shared/db/keys.ts';
import { readItems, scanAll } from '#shared/db/reads.ts';
import { setChargeLimits } from '../../scripts/admin/money-settings.ts';
import { auditLedger, cardAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';

const api = useTestApi();
const gateway = observeGateway();
const ios = clientPayload('ios_v15_users_gift_card_value_orders__create.json');
let world: OrderWorld;
let merchantId: number;
let pipeline: Awaited<ReturnType<typeof startEventPipeline>>;

beforeAll(async () => {
  world = await orderWorld();
  merchantId = world.merchant.merchant.merchant_id;
  pipeline = await startEventPipeline(api);
});

afterAll(async () => {
  await pipeline?.stop();
});

/** The mail items of the test's table addressed to `address` (the outbox: one per committed order). */
const mailItemsTo = async (address: string) =>
  (
    await scanAll({
      TableName: table(),
      FilterExpression: 'begins_with(pk, :mail) AND #to = :to',
      ExpressionAttributeNames: { '#to': 'to' },
      ExpressionAttributeValues: { ':mail': MAIL_PREFIX, ':to': address },
    })
  ).filter((item) => keys.isMailKey(item));

const body = (recipientEmail: string, valueAmount: number) => ({
  gift_card_value_order: {
    ...ios.request_body_template.gift_card_value_order,
    merchant_id: merchantId,
    recipient_email: recipientEmail,
    recipient_message: 'Happy birthday!',
    recipient_name: 'Friend',
    value_amount: valueAmount,
  },
});
const balance = async (account: string) => (await getBalance(account)).balance;

describe('POST /v15/users/gift_card_value_orders (A17)', () => {
  it('charges the buyer once, loads the recipient at the merchant, emails them; a keyed retry changes nothing', async () => {
    const recipient = await userFixture(world.app.app_id);
    const buyerCard = cardAccountKey(world.user.user.user_id, merchantId);
    const recipientGiftCard = giftCardAccountKey(recipient.user.user_id, merchantId);
    const [cardBefore, giftBefore] = [await balance(buyerCard), await balance(recipientGiftCard)];
    const headers = { 'Idempotency-Key': `gift-${recipient.user.user_id}` };
    const first = await api.call('POST', '/v15/users/gift_card_value_orders', { token: world.user.token, body: body(recipient.email, 2500), headers });
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.body.gift_card_value_order)).toEqual(expect.arrayContaining(Object.keys(ios.response_body.gift_card_value_order)));
    expect(first.body.gift_card_value_order.added_value_amount).toBe(2500);
    const retry = await api.call('POST', '/v15/users/gift_card_value_orders', { token: world.user.token, body: body(recipient.email, 2500), headers });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await balance(buyerCard)) - cardBefore).toBe(2500);
    expect((await balance(recipientGiftCard)) - giftBefore).toBe(2500);
    expect((await auditLedger()).mismatches).toEqual([]);

    // The email, sent from the outbox after the answer: exactly one, to the recipient, with the order's text.
    const mail = await mailTo(recipient.email, { timeoutMs: 15_000 });
    expect(mail).toHaveLength(1);
    expect(mail[0]!.destination.to).toEqual([recipient.email]);
    expect(mail[0]!.subject).toBe(`A $25.00 gift card for ${world.merchant.merchant.name}`);
    expect(mail[0]!.body.text).toBe(
      `Hi Friend,\n\nYou have been sent a $25.00 gift card for ${world.merchant.merchant.name}. It is on your account now: pay with your QR code there.\n\nTheir message: Happy birthday!`,
    );
    expect(mail[0]!.body.html).toContain('<p>Their message: Happy birthday!</p>');
    // Its item is marked sent and keeps no body; it expires (TTL) within days.
    const [item] = await readItems([keys.mail(`gcorder:${first.body.gift_card_value_order.uuid}`)], { consistent: true });
    expect(item).toMatchObject({ to: recipient.email, sent_at: expect.any(String), ttl: expect.any(Number) });
    expect(item).not.toHaveProperty('text');
    expect(item).not.toHaveProperty('html');
    expect(item!.ttl as number).toBeLessThanOrEqual(Date.now() / 1000 + 8 * 24 * 3600);

    // The stream handed over again (a retried batch, a replay from the stream's start): nothing is sent twice.
    const records = (await tableStreamRecords(api)).filter((record) => record.dynamodb.Keys?.pk?.S === item!.pk);
    expect(records.map((record) => record.eventName)).toContain('INSERT');
    for (let replay = 0; replay < 2; replay++) expect(await streamHandler({ Records: records } as DynamoDBStreamEvent)).toEqual({ queued: 0, mailed: 0 });
    expect(await mailTo(recipient.email)).toHaveLength(1);
  });

  it('refuses, charging nothing: below $10, an unknown merchant, no merchant, a buyer without a card', async () => {
    const recipient = await userFixture(world.app.app_id);
    const cardless = await userFixture(world.app.app_id);
    const buyerCard = cardAccountKey(world.user.user.user_id, merchantId);
    const before = await balance(buyerCard);
    const cases: [string, unknown, string][] = [
      [world.user.token, body(recipient.email, 999), 'value_amount'],
      [world.user.token, { gift_card_value_order: { ...body(recipient.email, 1000).gift_card_value_order, merchant_id: 99_999_999 } }, 'merchant_id'],
      [world.user.token, { gift_card_value_order: { recipient_email: recipient.email, value_amount: 1000 } }, 'merchant_id'],
      [cardless.token, body(recipient.email, 1000), 'base'],
    ];
    for (const [token, request, property] of cases) {
      const response = await api.call('POST', '/v15/users/gift_card_value_orders', { token, body: request });
      expect(response.status, JSON.stringify(request)).toBe(422);
      expect(response.body[0].error).toMatchObject({ object: 'gift_card_value_order', property });
    }
    expect(await balance(buyerCard)).toBe(before);
    expect(await balance(giftCardAccountKey(recipient.user.user_id, merchantId))).toBe(0);
    expect(await mailItemsTo(recipient.email)).toEqual([]);
  });

  it('mails only the order that commits: concurrent orders over the month limit are charged, given back, and leave no mail', async () => {
    // Orders racing for the month's last room all pass the read and are charged; the transaction lets one
    // through and the rest are given back (422). Under heavy load every loser may be refused at the read
    // instead, which proves nothing about a charged order that did not commit: try again with a new buyer.
    let refundedLosers = 0;
    for (let attempt = 0; attempt < 3 && refundedLosers === 0; attempt++) {
      const buyer = await orderWorld();
      await setChargeLimits({ appId: buyer.app.app_id }, { monthly_amount: 1000 });
      const recipients = await Promise.all(Array.from({ length: 4 }, () => userFixture(buyer.app.app_id)));
      const calls = gateway.since();
      const responses = await Promise.all(
        recipients.map((recipient) =>
          api.call('POST', '/v15/users/gift_card_value_orders', {
            token: buyer.user.token,
            body: { gift_card_value_order: { merchant_id: buyer.merchant.merchant.merchant_id, recipient_email: recipient.email, value_amount: 1000 } },
          }),
        ),
      );
      expect(responses.map((response) => response.status).sort(), responses.map((response) => response.text).join('\n')).toEqual([200, 422, 422, 422]);
      refundedLosers = calls().refunds.length;
      expect(calls().charges.length - refundedLosers).toBe(1);
      const winner = recipients[responses.findIndex((response) => response.status === 200)]!;
      expect(await mailTo(winner.email, { timeoutMs: 15_000 })).toHaveLength(1);
      for (const [index, recipient] of recipients.entries()) {
        if (responses[index]!.status === 200) continue;
        expect(await mailItemsTo(recipient.email)).toEqual([]);
        // Nothing of theirs reached the mailbox either (the winner's mail above shows the stream has caught up).
        expect(await mailTo(recipient.email, { timeoutMs: 0 })).toEqual([]);
      }
    }
    expect(refundedLosers, 'no order was charged and then refused in 3 tries').toBeGreaterThan(0);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

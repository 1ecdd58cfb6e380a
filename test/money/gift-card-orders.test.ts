/**
 * Gift card value orders (SDK reference A17) through HTTP with the iOS body: the buyer's card is charged once,
 * the recipient's value at the merchant goes up by the amount, the recipient is emailed, the ledger audits to 0;
 * an Idempotency-Key retry answers the first order without a second charge.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { userFixture } from '../support/fixtures.ts';
import { orderWorld, type OrderWorld } from '../support/money.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { mailTo } from '../support/mailbox.ts';
import { auditLedger, cardAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/ledger.ts';

const api = useTestApi();
const ios = clientPayload('ios_v15_users_gift_card_value_orders__create.json');
let world: OrderWorld;
let merchantId: number;

beforeAll(async () => {
  world = await orderWorld();
  merchantId = world.merchant.merchant.merchant_id;
});

const body = (recipientEmail: string, valueAmount: number) => ({
  gift_card_value_order: { ...ios.request_body_template.gift_card_value_order, merchant_id: merchantId, recipient_email: recipientEmail, recipient_message: 'Happy birthday!', recipient_name: 'Friend', value_amount: valueAmount },
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
    const mail = await mailTo(recipient.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body.text).toContain('$25.00');
    expect(mail[0]!.body.text).toContain('Happy birthday!');
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('refuses, charging nothing: below $10, an unknown recipient or merchant, no merchant, a buyer without a card', async () => {
    const recipient = await userFixture(world.app.app_id);
    const cardless = await userFixture(world.app.app_id);
    const buyerCard = cardAccountKey(world.user.user.user_id, merchantId);
    const before = await balance(buyerCard);
    const cases: [string, unknown, string][] = [
      [world.user.token, body(recipient.email, 999), 'value_amount'],
      [world.user.token, body('nobody-here@example.com', 1000), 'recipient_email'],
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
  });
});

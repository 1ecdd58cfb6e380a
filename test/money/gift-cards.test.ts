import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errorBody } from '../support/answers.ts';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { loadGiftCard, moneyWorld } from '../support/money.ts';
import { auditLedger, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const error = (object: string, property: string, message: string) => [{ error: expect.objectContaining({ object, property, message }) }];

describe('POST /v15/merchants/:merchant_id/gift_card_value_additions', () => {
  it('loads value at the merchant and answers old and new value (C# client body)', async () => {
    const { merchant, user } = await moneyWorld();
    const body = {
      payment_token_data: user.user.payment_token_data,
      value_amount: 1000,
      location_id: 1234,
      order_uuid: 'a7e23820d56802321bb64ab3b58dfe6c',
      tender_types: ['cash'],
      identifier_from_merchant: '012345',
    };
    const first = await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      gift_card_value_addition: {
        added_value_amount: 1000,
        old_value_at_merchant_amount: 0,
        new_value_at_merchant_amount: 1000,
        uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });
    // No external_identifier: every request is a new addition.
    const second = await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, { ...body, value_amount: 2500 });
    expect(second.body.gift_card_value_addition).toMatchObject({
      added_value_amount: 2500,
      old_value_at_merchant_amount: 1000,
      new_value_at_merchant_amount: 3500,
    });
    expect(second.body.gift_card_value_addition.uuid).not.toBe(first.body.gift_card_value_addition.uuid);
  });

  it('rejects an unknown QR code', async () => {
    const { merchant } = await moneyWorld();
    const response = await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, {
      payment_token_data: 'LU02NOTAREALCODE00000000000000LU',
      value_amount: 1000,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(error('gift_card_value_addition', 'base', 'You cannot add value to this QR code.'));
  });

  it('rejects more than $500.00, zero, negative and less than the $10 minimum', async () => {
    const { merchant, user } = await moneyWorld();
    const load = (value_amount: number) =>
      loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, { payment_token_data: user.user.payment_token_data, value_amount });
    const tooMuch = await load(50_001);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toEqual(error('gift_cards/value_adder', 'base', 'Maximum amount that can be added to a gift card at once is $500.00'));
    for (const amount of [0, -100]) {
      const response = await load(amount);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(error('gift_cards/value_adder', 'base', 'You must load a positive amount.'));
    }
    const tooLittle = await load(999);
    expect(tooLittle.status).toBe(422);
    expect(tooLittle.body).toEqual(
      errorBody('gift_cards/value_adder', 'base', 'Minimum amount that can be added to a gift card at once is $10.00', 'below_minimum'),
    );
    expect((await load(50_000)).status).toBe(200);
    expect((await getBalance(giftCardAccountKey(user.user.user_id, merchant.merchant.merchant_id))).balance).toBe(50_000);
  });

  it("answers 401 to another merchant's token", async () => {
    const { app, merchant, user } = await moneyWorld();
    const other = await merchantFixture(app.app_id);
    const response = await loadGiftCard(api, other.token, merchant.merchant.merchant_id, {
      payment_token_data: user.user.payment_token_data,
      value_amount: 1000,
    });
    expect(response.status).toBe(401);
    expect((await getBalance(giftCardAccountKey(user.user.user_id, merchant.merchant.merchant_id))).balance).toBe(0);
  });

  it('loads once for 50 concurrent requests with one external_identifier, and replays the first response', async () => {
    const { merchant, user } = await moneyWorld();
    await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, { payment_token_data: user.user.payment_token_data, value_amount: 1500 });
    const externalIdentifier = randomUUID();
    const body = { payment_token_data: user.user.payment_token_data, value_amount: 2000, external_identifier: externalIdentifier };
    const responses = await Promise.all(Array.from({ length: 50 }, () => loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, body)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const texts = new Set(responses.map((response) => JSON.stringify(response.body)));
    expect([...texts]).toEqual([JSON.stringify(responses[0]!.body)]);
    expect(responses[0]!.body.gift_card_value_addition).toMatchObject({
      added_value_amount: 2000,
      old_value_at_merchant_amount: 1500,
      new_value_at_merchant_amount: 3500,
    });
    expect((await getBalance(giftCardAccountKey(user.user.user_id, merchant.merchant.merchant_id))).balance).toBe(3500);

    const replay = await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, { ...body, value_amount: 40_000 });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(responses[0]!.body);
    expect((await getBalance(giftCardAccountKey(user.user.user_id, merchant.merchant.merchant_id))).balance).toBe(3500);
  });

  it('scopes external_identifier to the merchant', async () => {
    const { app, merchant, user } = await moneyWorld();
    const other = await merchantFixture(app.app_id);
    const body = { payment_token_data: user.user.payment_token_data, value_amount: 1000, external_identifier: 'POS-1' };
    const first = await loadGiftCard(api, merchant.token, merchant.merchant.merchant_id, body);
    const second = await loadGiftCard(api, other.token, other.merchant.merchant_id, body);
    expect(second.body.gift_card_value_addition.uuid).not.toBe(first.body.gift_card_value_addition.uuid);
    expect(second.body.gift_card_value_addition.new_value_at_merchant_amount).toBe(1000);
  });

  it('leaves a ledger that matches every balance', async () => {
    const report = await auditLedger();
    expect(report.mismatches).toEqual([]);
    expect(report.entries).toBeGreaterThan(0);
  });
});

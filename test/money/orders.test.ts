import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { complete, orderWorld, placeOrder, propose, worldBalances, loadWorldGiftCard } from '../support/money.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';

const api = useTestApi();

describe('POST /v15/proposed_orders', () => {
  it('answers the uuid and the merchant-funded credit the customer can apply (C# client body)', async () => {
    const world = await orderWorld({ credit: 2578 });
    const request = payload('csharp_v15_proposed_orders__create.json').request_body.proposed_order;
    const response = await propose(api, world, {
      ...request,
      location_id: world.location.location_id,
      payment_token_data: world.user.user.payment_token_data,
      spend_amount: 5000,
    });
    expect(response.status).toBe(200);
    expect(response.body.proposed_order).toMatchObject({ uuid: expect.stringMatching(/^[0-9a-f]{32}$/), discount_amount: 2578 });
  });

  it('offers no more than spend minus exemption, and nothing without credit', async () => {
    const world = await orderWorld({ credit: 2000 });
    const limited = await propose(api, world, { spend_amount: 1000, exemption_amount: 400 });
    expect(limited.body.proposed_order.discount_amount).toBe(600);
    const none = await propose(api, await orderWorld());
    expect(none.body.proposed_order.discount_amount).toBe(0);
  });

  it("rejects another merchant's location (401, issue 34.3), a missing one (422) and an unknown QR code", async () => {
    const world = await orderWorld();
    const other = await merchantFixture(world.app.app_id);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    const badLocation = await propose(api, world, { location_id: otherLocation.location_id });
    expect(badLocation.status).toBe(401);
    expect(badLocation.body).toEqual([
      { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
    ]);
    const missingLocation = await propose(api, world, { location_id: 987_654_321 });
    expect(missingLocation.status).toBe(422);
    expect(missingLocation.body).toEqual([{ error: { object: 'order', property: 'location_id', message: "Location can't be blank", code: 'not_found' } }]);
    const badUser = await propose(api, world, { payment_token_data: 'LU02UNKNOWN00000000000000000000LU' });
    expect(badUser.status).toBe(401);
    expect(badUser.body).toEqual([
      { error: { object: 'order', property: 'user_token', message: 'Not authorized to create orders for this user.', code: 'not_authorized' } },
    ]);
  });
});

describe('POST /v15/completed_orders', () => {
  it('completes the C# client request and answers a completed order with a new uuid', async () => {
    const world = await orderWorld({ credit: 100 });
    const proposed = await propose(api, world, { spend_amount: 110 });
    const request = payload('csharp_v15_completed_orders__create.json').request_body.completed_order;
    const response = await complete(api, world, proposed.body.proposed_order.uuid, {
      ...request,
      proposed_order_uuid: proposed.body.proposed_order.uuid,
      location_id: world.location.location_id,
      payment_token_data: world.user.user.payment_token_data,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      order: {
        gift_card_total_amount: 0,
        gift_card_tip_amount: 0,
        spend_amount: 110,
        tip_amount: 0,
        total_amount: 110,
        uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });
    expect(response.body.order.uuid).not.toBe(proposed.body.proposed_order.uuid);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 10 });
  });

  it('accepts a null applied_discount_amount (discounts disabled client)', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world, { spend_amount: 200 });
    const response = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 200, applied_discount_amount: null, exemption_amount: 40 });
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({ spend_amount: 200, total_amount: 200 });
  });

  it('rule 1: spend includes the applied discount; the card pays the rest', async () => {
    const world = await orderWorld({ credit: 300 });
    const response = await placeOrder(api, world, { spend_amount: 1000, applied_discount_amount: 300, tip_amount: 150 });
    expect(response.body.order).toMatchObject({ spend_amount: 1000, tip_amount: 150, total_amount: 1150, gift_card_total_amount: 0 });
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 850 });
  });

  it('rejects an applied discount above the credit available', async () => {
    const world = await orderWorld({ credit: 300 });
    const response = await placeOrder(api, world, { applied_discount_amount: 301 });
    expect(response.status).toBe(422);
    expect(response.body[0].error).toMatchObject({ object: 'order', property: 'applied_discount_amount', code: 'exceeds_available' });
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 300, card: 0 });
  });

  it('pays with gift card value at the merchant first, tip included', async () => {
    const world = await orderWorld();
    await loadWorldGiftCard(api, world, 1100);
    const response = await placeOrder(api, world, { spend_amount: 1000, tip_amount: 200 });
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({
      gift_card_total_amount: 1100,
      gift_card_tip_amount: 100,
      spend_amount: 1000,
      tip_amount: 200,
      total_amount: 1200,
    });
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 100 });
  });

  it('rule 2: partial authorization approves what the card has', async () => {
    const world = await orderWorld({ card: 'limited-funds' });
    const response = await placeOrder(api, world, { spend_amount: 2000, partial_authorization_allowed: true });
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({ spend_amount: 1500, total_amount: 1500 });
    expect(await worldBalances(world)).toMatchObject({ card: 1500 });
  });

  it('rule 3: without partial authorization an insufficient balance or a decline is rejected and changes nothing', async () => {
    const limited = await orderWorld({ card: 'limited-funds', credit: 100 });
    const proposed = await propose(api, limited, { spend_amount: 2000 });
    const rejected = await complete(api, limited, proposed.body.proposed_order.uuid, { spend_amount: 2000, applied_discount_amount: 100 });
    expect(rejected.status).toBe(422);
    expect(rejected.body).toEqual([
      { error: { object: 'order', property: 'base', message: expect.stringContaining('insufficient funds'), code: 'insufficient_funds' } },
    ]);
    expect(await worldBalances(limited)).toEqual({ giftCard: 0, credit: 100, card: 0 });
    // The proposed order is still there to complete another way.
    const retried = await complete(api, limited, proposed.body.proposed_order.uuid, { spend_amount: 1600, applied_discount_amount: 100 });
    expect(retried.status).toBe(200);

    const declines = await orderWorld({ card: 'declines' });
    const declined = await placeOrder(api, declines, { partial_authorization_allowed: true });
    expect(declined.status).toBe(422);
    expect(declined.body).toEqual([{ error: { object: 'order', property: 'base', message: 'Sorry. We cannot charge the credit card at this time.' } }]);
    expect(await worldBalances(declines)).toEqual({ giftCard: 0, credit: 0, card: 0 });
  });

  it('rule 4: a user without a card gets loyalty only with partial authorization', async () => {
    const world = await orderWorld({ card: 'none', credit: 200 });
    const loyaltyOnly = await placeOrder(api, world, { spend_amount: 1000, applied_discount_amount: 200, partial_authorization_allowed: true });
    expect(loyaltyOnly.status).toBe(200);
    expect(loyaltyOnly.body.order).toMatchObject({ spend_amount: 200, total_amount: 200 });
    const nothing = await placeOrder(api, world, { spend_amount: 1000, partial_authorization_allowed: true });
    expect(nothing.body.order).toMatchObject({ spend_amount: 0, total_amount: 0 });
    const rejected = await placeOrder(api, world, { spend_amount: 1000 });
    expect(rejected.status).toBe(422);
    expect(rejected.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'no_payment_method' });
  });

  it('rule 5: discount_only applies only merchant-funded credit, no gift card and no charge', async () => {
    const world = await orderWorld({ credit: 250 });
    await loadWorldGiftCard(api, world, 5000);
    const response = await placeOrder(api, world, {
      spend_amount: 1000,
      applied_discount_amount: 250,
      discount_only: true,
      partial_authorization_allowed: true,
      tip_amount: 100,
    });
    expect(response.status).toBe(200);
    expect(response.body.order).toMatchObject({ spend_amount: 250, gift_card_total_amount: 0, tip_amount: 0, total_amount: 250 });
    expect(await worldBalances(world)).toEqual({ giftCard: 5000, credit: 0, card: 0 });
  });

  it("rejects another merchant's token, an unknown or another user's QR code and another merchant's location", async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const uuid = proposed.body.proposed_order.uuid;
    const other = await merchantFixture(world.app.app_id);
    const wrongMerchant = await complete(api, world, uuid, {}, { token: other.token });
    expect(wrongMerchant.status).toBe(401);
    expect(wrongMerchant.body).toEqual([
      { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
    ]);
    const unknownUser = await complete(api, world, uuid, { payment_token_data: 'LU02UNKNOWN00000000000000000000LU' });
    expect(unknownUser.status).toBe(401);
    expect(unknownUser.body).toEqual([
      { error: { object: 'order', property: 'user_token', message: 'Not authorized to create orders for this user.', code: 'not_authorized' } },
    ]);
    const stranger = await orderWorld();
    const otherUser = await complete(api, world, uuid, { payment_token_data: stranger.user.user.payment_token_data });
    expect(otherUser.status).toBe(401);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    const badLocation = await complete(api, world, uuid, { location_id: otherLocation.location_id });
    expect(badLocation.status).toBe(401);
    expect(badLocation.body).toEqual([
      { error: { object: 'order', property: 'merchant_token', message: 'Not authorized to create orders for this merchant.', code: 'not_authorized' } },
    ]);
    const missingLocation = await complete(api, world, uuid, { location_id: 999_999 });
    expect(missingLocation.status).toBe(422);
    expect(missingLocation.body).toEqual([{ error: { object: 'order', property: 'location_id', message: "Location can't be blank", code: 'not_found' } }]);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 0 });
  });

  it('limits identifier_from_merchant to 10 characters and receipt_message_html to 1000 characters of a, br, p, strong', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const uuid = proposed.body.proposed_order.uuid;
    const longIdentifier = await complete(api, world, uuid, { identifier_from_merchant: '12345678901' });
    expect(longIdentifier.status).toBe(422);
    expect(longIdentifier.body[0].error).toMatchObject({ property: 'identifier_from_merchant', code: 'too_long' });
    for (const html of ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<p onclick="x()">hi</p>', '<a href="javascript:alert(1)">x</a>']) {
      const response = await complete(api, world, uuid, { receipt_message_html: html });
      expect(response.status, html).toBe(422);
      expect(response.body[0].error).toMatchObject({ property: 'receipt_message_html', code: 'invalid' });
    }
    const tooLong = await complete(api, world, uuid, { receipt_message_html: 'x'.repeat(1001) });
    expect(tooLong.body[0].error).toMatchObject({ property: 'receipt_message_html', code: 'too_long' });
    const fine = await complete(api, world, uuid, {
      identifier_from_merchant: '1234567890',
      receipt_message_html: '<p>Thanks! <strong>Come again</strong><br/><a href="https://example.com">site</a></p>',
    });
    expect(fine.status).toBe(200);
  });

  it('completes a proposed order once under 20 concurrent completions and charges once', async () => {
    const world = await orderWorld({ credit: 100 });
    const proposed = await propose(api, world, { spend_amount: 900 });
    const uuid = proposed.body.proposed_order.uuid;
    const responses = await Promise.all(Array.from({ length: 20 }, () => complete(api, world, uuid, { spend_amount: 900, applied_discount_amount: 100 })));
    // Identical completions are repeats (issue 34.2): those that waited the first out answer its order, the
    // others a 409 to retry; all describe one order.
    const won = responses.filter((response) => response.status === 200);
    expect(won.length).toBeGreaterThan(0);
    expect(new Set(won.map((response) => response.text)).size).toBe(1);
    for (const response of responses.filter((candidate) => candidate.status !== 200)) {
      expect(response.status).toBe(409);
      expect(response.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'in_progress' });
    }
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 800 });
    const again = await complete(api, world, uuid, { spend_amount: 900, applied_discount_amount: 100 });
    expect(again.status).toBe(200);
    expect(again.text).toBe(won[0]!.text);
  });

  it('leaves a ledger that matches every balance, none negative', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

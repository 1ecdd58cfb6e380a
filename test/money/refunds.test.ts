import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { orderWorld, placeOrder, type OrderWorld, worldBalances, loadWorldGiftCard } from '../support/money.ts';
import { auditLedger, getBalance } from '#shared/domain/money/ledger.ts';
import { detachedAccountKey } from '#shared/domain/orders/detached-refunds.ts';

const api = useTestApi();

const refund = (world: OrderWorld, uuid: string, options: { body?: unknown; token?: string; version?: 'v14' | 'v15'; headers?: Record<string, string> } = {}) =>
  api.call('POST', `/${options.version ?? 'v14'}/orders/${uuid}/refund`, {
    token: options.token ?? world.merchant.token,
    body: options.body,
    headers: options.headers,
  });

describe('POST /v14/orders/:uuid/refund', () => {
  it('refunds once: restores gift card value and discount, refunds the card, answers the merchant-facing order', async () => {
    const world = await orderWorld({ credit: 300 });
    await loadWorldGiftCard(api, world, 1000);
    const completed = await placeOrder(api, world, { spend_amount: 2000, applied_discount_amount: 300, tip_amount: 100 });
    expect(completed.status).toBe(200);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 800 });

    const response = await refund(world, completed.body.order.uuid);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      order: {
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        merchant_funded_credit_amount: 300,
        earn_amount: 0,
        uuid: completed.body.order.uuid,
        loyalty_id: world.user.user.user_id,
        spend_amount: 2000,
        refunded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        tip_amount: 100,
        total_amount: 2100,
        location_id: world.location.location_id,
        user_display_name: 'Test U.',
      },
    });
    expect(await worldBalances(world)).toEqual({ giftCard: 1000, credit: 300, card: 0 });

    // Sent again (a POS whose answer was lost): the refunded order, nothing refunded twice (issue 34.2).
    const second = await refund(world, completed.body.order.uuid);
    expect(second.status).toBe(200);
    expect(second.text).toBe(response.text);
    expect(await worldBalances(world)).toEqual({ giftCard: 1000, credit: 300, card: 0 });
  });

  it('answers 404 with an empty body for an unknown order', async () => {
    const world = await orderWorld();
    const response = await refund(world, '0123456789abcdef0123456789abcdef');
    expect(response.status).toBe(404);
    expect(response.text).toBe('');
  });

  it("answers 401 to another merchant's token and changes nothing", async () => {
    const world = await orderWorld();
    const completed = await placeOrder(api, world);
    const other = await merchantFixture(world.app.app_id);
    const response = await refund(world, completed.body.order.uuid, { token: other.token });
    expect(response.status).toBe(401);
    expect(await worldBalances(world)).toMatchObject({ card: 1000 });
  });

  it('requires the manager confirmation when the merchant has one', async () => {
    const world = await orderWorld({ managerConfirmation: '87168' });
    const completed = await placeOrder(api, world);
    for (const body of [undefined, { refund: { manager_confirmation: null } }, { refund: { manager_confirmation: '11111' } }]) {
      const response = await refund(world, completed.body.order.uuid, { body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual([{ error: { object: 'refund', property: 'manager_confirmation', message: 'Manager confirmation was incorrect.' } }]);
    }
    const accepted = await refund(world, completed.body.order.uuid, { body: { refund: { manager_confirmation: '87168' } } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.order.refunded_at).not.toBeNull();
  });

  it('accepts the v15 path and a null manager confirmation when the merchant has none', async () => {
    const world = await orderWorld();
    const completed = await placeOrder(api, world);
    const response = await refund(world, completed.body.order.uuid, { version: 'v15', body: { refund: { manager_confirmation: null } } });
    expect(response.status).toBe(200);
  });

  it('refunds once under 10 concurrent refunds, each answered with the one refunded order', async () => {
    const world = await orderWorld({ credit: 100 });
    const completed = await placeOrder(api, world, { spend_amount: 1000, applied_discount_amount: 100 });
    const responses = await Promise.all(Array.from({ length: 10 }, () => refund(world, completed.body.order.uuid)));
    for (const response of responses) expect(response.status, response.text).toBe(200);
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 100, card: 0 });
  });

  it('leaves a ledger that matches every balance, none negative', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

describe('detached refunds count against an order refund (issue 33, "double refund")', () => {
  const detachedRequest = clientPayload('csharp_v15_detached_refunds__create.json').request_body.detached_refund;
  /** The C# SDK's detached refund of `amount` to the world's customer, with the merchant's manager code. */
  const refundDetached = (world: OrderWorld, amount: number) =>
    api.call('POST', '/v15/detached_refunds', {
      token: world.merchant.token,
      body: {
        detached_refund: {
          ...detachedRequest,
          credit_amount: amount,
          location_id: world.location.location_id,
          payment_token_data: world.user.user.payment_token_data,
          manager_confirmation: '87168',
          identifier_from_merchant: null,
        },
      },
    });
  const refundWithCode = (world: OrderWorld, uuid: string) => refund(world, uuid, { version: 'v15', body: { refund: { manager_confirmation: '87168' } } });
  const detachedOutstanding = async (world: OrderWorld) =>
    (await getBalance(detachedAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;

  it('takes back the detached credit a refunded $100 order no longer covers: the customer gets $100 back, not $200', async () => {
    const world = await orderWorld({ managerConfirmation: '87168' });
    const order = await placeOrder(api, world, { spend_amount: 10_000 });
    expect(order.status, order.text).toBe(200);
    const detached = await refundDetached(world, 10_000);
    expect(detached.status, detached.text).toBe(200);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 10_000, card: 10_000 });

    const refunded = await refundWithCode(world, order.body.order.uuid);
    expect(refunded.status, refunded.text).toBe(200);
    // The card has its $100 back; the $100 of detached credit it paid for is gone with it.
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 0 });
    expect(await detachedOutstanding(world)).toBe(0);
    // Nothing left to give: a new detached refund finds no charges to cover it.
    expect((await refundDetached(world, 100)).status).toBe(422);
  });

  it('takes back only the part the remaining charges no longer cover, after some of the credit was spent', async () => {
    const world = await orderWorld({ managerConfirmation: '87168' });
    const first = await placeOrder(api, world, { spend_amount: 10_000 });
    expect((await placeOrder(api, world, { spend_amount: 5_000 })).status).toBe(200);
    expect((await refundDetached(world, 8_000)).status).toBe(200);
    // The customer spends 3000 of the detached credit on a third order (charged 2000).
    expect((await placeOrder(api, world, { spend_amount: 5_000, applied_discount_amount: 3_000 })).status).toBe(200);
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 5_000, card: 17_000 });

    expect((await refundWithCode(world, first.body.order.uuid)).status).toBe(200);
    // 7000 of charges are left, so 1000 of the 8000 of detached refunds is no longer covered: taken back.
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 4_000, card: 7_000 });
    expect(await detachedOutstanding(world)).toBe(7_000);
  });

  it('never lets a detached refund and the order refund at once give back more than was charged', async () => {
    const world = await orderWorld({ managerConfirmation: '87168' });
    const order = await placeOrder(api, world, { spend_amount: 10_000 });
    const [detached, refunded] = await Promise.all([refundDetached(world, 10_000), refundWithCode(world, order.body.order.uuid)]);
    expect(refunded.status, refunded.text).toBe(200);
    expect([200, 409, 422]).toContain(detached.status);
    // Whichever committed first, the customer holds no credit the card's remaining charges do not cover.
    expect(await worldBalances(world)).toEqual({ giftCard: 0, credit: 0, card: 0 });
    expect(await detachedOutstanding(world)).toBe(0);
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

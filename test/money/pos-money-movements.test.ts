/**
 * POS money movements (sdk-operations P7, P8) driven by the reference's bodies: gift card value
 * removals and detached refunds, each one conditional transaction with its ledger entries, exactly once.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { clientPayload as payload } from '../support/client-payloads.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { orderWorld, placeOrder, type OrderWorld, loadWorldGiftCard } from '../support/money.ts';
import { auditLedger, creditAccountKey, getBalance, giftCardAccountKey } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const giftCardOf = async (world: OrderWorld) => (await getBalance(giftCardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
const creditOf = async (world: OrderWorld) => (await getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;
const removalsPath = (world: OrderWorld) => `/v15/merchants/${world.merchant.merchant.merchant_id}/gift_card_value_removals`;
const remove = (world: OrderWorld, removal: Record<string, unknown>, options: { token?: string; headers?: Record<string, string> } = {}) =>
  api.call('POST', removalsPath(world), {
    token: options.token ?? world.merchant.token,
    headers: options.headers,
    body: { gift_card_value_removal: { payment_token_data: world.user.user.payment_token_data, ...removal } },
  });
async function load(world: OrderWorld, amount: number) {
  const loaded = await loadWorldGiftCard(api, world, amount);
  expect(loaded.status).toBe(200);
  return loaded.body.gift_card_value_addition.uuid as string;
}

describe('P7 POST /v15/merchants/:merchant_id/gift_card_value_removals', () => {
  it('removes an amount (C# body, untagged token) and answers the three fields the SDK reads', async () => {
    const world = await orderWorld();
    await load(world, 2020);
    const reference = payload('csharp_v15_merchants_gift_card_value_removals__create.json');
    const response = await remove(world, {
      ...reference.request_body.gift_card_value_removal,
      payment_token_data: world.user.user.payment_token_data,
      uuid: null,
    });
    expect(response.status).toBe(reference.response_status);
    expect(Object.keys(response.body.gift_card_value_removal).sort()).toEqual(Object.keys(reference.response_body.gift_card_value_removal).sort());
    expect(response.body).toEqual({
      gift_card_value_removal: { removed_value_amount: 100, new_value_at_merchant_amount: 1920, old_value_at_merchant_amount: 2020 },
    });
    expect(await giftCardOf(world)).toBe(1920);
    // The gift card credit a POS reads next (P6) is the addition less the removal (the C# integration test).
    const credit = await api.call('POST', `/v15/locations/${world.location.location_id}/get_merchant_funded_gift_card_credit`, {
      token: world.merchant.token,
      body: { get_merchant_funded_gift_card_credit: { payment_token_data: world.user.user.payment_token_data } },
    });
    expect(credit.body.merchant_funded_gift_card_credit.total_amount).toBe(1920);
  });

  it('answers the documented errors and removes nothing', async () => {
    const world = await orderWorld();
    await load(world, 1000);
    const errors = payload('csharp_v15_merchants_gift_card_value_removals__errors.json').responses;
    const unknownCode = await api.call('POST', removalsPath(world), {
      token: world.merchant.token,
      body: { gift_card_value_removal: { payment_token_data: 'LU020000000THISISFAKE000000000LU', value_amount: 100 } },
    });
    expect(unknownCode.status).toBe(errors[0].response_status);
    expect(unknownCode.text).toBe('');
    for (const amount of [0, -5, null]) {
      const negative = await remove(world, { value_amount: amount });
      expect(negative.status).toBe(errors[1].response_status);
      expect(negative.body).toEqual(errors[1].response_body);
    }
    const tooMuch = await remove(world, { value_amount: 1001 });
    expect(tooMuch.status).toBe(errors[2].response_status);
    expect(tooMuch.body).toEqual([
      { error: { ...errors[2].response_body[0].error, message: 'This giftcard has a balance of $10.00. Please retry with that amount.' } },
    ]);
    const badToken = await remove(world, { value_amount: 100 }, { token: 'f'.repeat(64) });
    expect(badToken.status).toBe(errors[3].response_status);
    const other = await merchantFixture(world.app.app_id);
    const foreign = await remove(world, { value_amount: 100 }, { token: other.token });
    expect(foreign.status).toBe(401);
    expect(await giftCardOf(world)).toBe(1000);
  });

  it('reverses an addition by its uuid (hyphenated as .NET writes it) once: a repeat answers the first removal', async () => {
    const world = await orderWorld();
    await load(world, 1500);
    const addition = await load(world, 2000);
    const reference = payload('csharp_v15_merchants_gift_card_value_removals__create_by_uuid.json');
    const guid = `${addition.slice(0, 8)}-${addition.slice(8, 12)}-${addition.slice(12, 16)}-${addition.slice(16, 20)}-${addition.slice(20)}`.toUpperCase();
    const body = { ...reference.request_body_template.gift_card_value_removal, uuid: guid, payment_token_data: world.user.user.payment_token_data };
    const first = await remove(world, body);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      gift_card_value_removal: { removed_value_amount: 2000, new_value_at_merchant_amount: 1500, old_value_at_merchant_amount: 3500 },
    });
    const again = await remove(world, { ...body, uuid: addition });
    expect(again.body).toEqual(first.body);
    expect(await giftCardOf(world)).toBe(1500);
    const unknown = await remove(world, { ...body, uuid: '0123456789abcdef0123456789abcdef' });
    expect(unknown.status).toBe(422);
    expect(unknown.body[0].error).toMatchObject({ object: 'gift_card_value_removal', property: 'uuid', code: 'not_found' });
  });

  it('20 concurrent removals reversing one addition remove it once; never more than the addition nor below zero', async () => {
    const world = await orderWorld();
    await load(world, 1000);
    const addition = await load(world, 3000);
    const responses = await Promise.all(Array.from({ length: 20 }, () => remove(world, { uuid: addition, value_amount: null })));
    for (const response of responses) expect([200, 409], response.text).toContain(response.status);
    const answered = responses.filter((response) => response.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const response of answered) expect(response.body).toEqual(answered[0]!.body);
    expect(answered[0]!.body.gift_card_value_removal.removed_value_amount).toBe(3000);
    expect(await giftCardOf(world)).toBe(1000);

    // Spent in part before the reversal: only what is left goes (never below zero).
    const spent = await orderWorld();
    const spentAddition = await load(spent, 2000);
    expect((await placeOrder(api, spent, { spend_amount: 1500 })).status).toBe(200);
    const partial = await remove(spent, { uuid: spentAddition });
    expect(partial.body).toEqual({
      gift_card_value_removal: { removed_value_amount: 500, new_value_at_merchant_amount: 0, old_value_at_merchant_amount: 500 },
    });
  });

  it('removes once per Idempotency-Key', async () => {
    const world = await orderWorld();
    await load(world, 5000);
    const headers = { 'Idempotency-Key': `removal-${world.user.user.user_id}` };
    const responses = await Promise.all(Array.from({ length: 10 }, () => remove(world, { value_amount: 700 }, { headers })));
    for (const response of responses) expect([200, 409]).toContain(response.status);
    const replay = await remove(world, { value_amount: 700 }, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await giftCardOf(world)).toBe(4300);
  });
});

const detached = payload('csharp_v15_detached_refunds__create.json');
const detachedErrors = payload('docs_v15_detached_refunds__errors.json');
const detachedBody = (world: OrderWorld, fields: Record<string, unknown> = {}) => ({
  detached_refund: {
    ...detached.request_body.detached_refund,
    location_id: world.location.location_id,
    payment_token_data: world.user.user.payment_token_data,
    manager_confirmation: null,
    identifier_from_merchant: null,
    ...fields,
  },
});
const refundDetached = (
  world: OrderWorld,
  body: unknown,
  options: { token?: string; authorization?: string; headers?: Record<string, string>; version?: string } = {},
) =>
  api.call('POST', `/${options.version ?? 'v15'}/detached_refunds`, {
    authorization: options.authorization ?? `token ${options.token ?? world.merchant.token}`,
    headers: options.headers,
    body,
  });

describe('P8 POST /v15/detached_refunds (and v14)', () => {
  it('credits the customer (the C# body with its manager confirmation) and answers every field the SDK reads', async () => {
    const world = await orderWorld({ managerConfirmation: '12345' });
    expect((await placeOrder(api, world, { spend_amount: 1000 })).status).toBe(200);
    const response = await refundDetached(
      world,
      detachedBody(world, {
        manager_confirmation: detached.request_body.detached_refund.manager_confirmation,
        identifier_from_merchant: `${world.user.user.user_id}-1`,
      }),
    );
    expect(response.status, response.text).toBe(detached.response_status);
    expect(Object.keys(response.body.detached_refund).sort()).toEqual(Object.keys(detached.response_body.detached_refund).sort());
    expect(response.body.detached_refund).toMatchObject({
      cashier: 'Andrew Jones',
      credit_amount: 743,
      customer_facing_reason: 'Sorry about your coffee!',
      internal_reason: "Andrew didn't like his coffee",
      location_id: world.location.location_id,
      loyalty_id: world.user.user.user_id,
      refunded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      register: '03',
    });
    expect(await creditOf(world)).toBe(743);
    // The docs' minimal body on v14 with a tagged token; the credit is what the next proposed order offers.
    const minimal = await refundDetached(
      world,
      {
        detached_refund: {
          ...detachedErrors.request_body_minimal.detached_refund,
          credit_amount: 100,
          location_id: world.location.location_id,
          payment_token_data: world.user.user.payment_token_data,
          manager_confirmation: '12345',
        },
      },
      { version: 'v14', authorization: `token merchant="${world.merchant.token}"` },
    );
    expect(minimal.status, minimal.text).toBe(200);
    expect(minimal.body.detached_refund).toMatchObject({
      cashier: null,
      customer_facing_reason: null,
      identifier_from_merchant: null,
      internal_reason: null,
      register: null,
    });
    const proposed = await api.call('POST', '/v15/proposed_orders', {
      token: world.merchant.token,
      body: { proposed_order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 5000 } },
    });
    expect(proposed.body.proposed_order.discount_amount).toBe(843);
  });

  it('answers the documented errors and credits nothing', async () => {
    const world = await orderWorld({ managerConfirmation: '12345' });
    const never = await refundDetached(world, detachedBody(world, { manager_confirmation: '12345' }));
    expect(never.status).toBe(422);
    expect(never.body).toEqual([
      {
        error: {
          ...detachedErrors.errors[2].response_body[0].error,
          message: `You can't refund Test U. because they've never transacted at ${world.merchant.merchant.name}.`,
        },
      },
    ]);
    expect((await placeOrder(api, world, { spend_amount: 500 })).status).toBe(200);
    const wrongCode = await refundDetached(world, detachedBody(world, { manager_confirmation: '54321' }));
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body).toEqual(detachedErrors.errors[1].response_body);
    const tooMuch = await refundDetached(world, detachedBody(world, { manager_confirmation: '12345', credit_amount: 501 }));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body[0].error).toMatchObject({
      object: 'detached_refund',
      property: 'credit_amount',
      message: `Credit amount cannot be more than Test U. has ever spent at ${world.merchant.merchant.name}.`,
    });
    // Together the refunds stay within what was spent.
    expect((await refundDetached(world, detachedBody(world, { manager_confirmation: '12345', credit_amount: 300 }))).status).toBe(200);
    expect((await refundDetached(world, detachedBody(world, { manager_confirmation: '12345', credit_amount: 201 }))).status).toBe(422);
    const other = await merchantFixture(world.app.app_id);
    const otherLocation = await locationFixture(other.merchant.merchant_id);
    expect((await refundDetached(world, detachedBody(world, { manager_confirmation: '12345' }), { token: other.token })).status).toBe(401);
    expect((await refundDetached(world, detachedBody(world, { manager_confirmation: '12345', location_id: otherLocation.location_id }))).status).toBe(401);
    const unknownCode = await refundDetached(
      world,
      detachedBody(world, { manager_confirmation: '12345', payment_token_data: 'LU020000000THISISFAKE000000000LU' }),
    );
    expect(unknownCode.status).toBe(404);
    expect(await creditOf(world)).toBe(300);
  });

  it('20 concurrent detached refunds with one Idempotency-Key credit once; a repeated identifier_from_merchant answers the first', async () => {
    const world = await orderWorld();
    expect((await placeOrder(api, world, { spend_amount: 5000 })).status).toBe(200);
    const headers = { 'Idempotency-Key': `detached-${world.user.user.user_id}` };
    const body = detachedBody(world, { credit_amount: 250 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => refundDetached(world, body, { headers })));
    for (const response of responses) {
      expect([200, 409], response.text).toContain(response.status);
      if (response.status === 409) expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(await creditOf(world)).toBe(250);
    const replay = await refundDetached(world, body, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await creditOf(world)).toBe(250);

    const byIdentifier = detachedBody(world, { credit_amount: 100, identifier_from_merchant: `dup-${world.user.user.user_id}` });
    const identified = await Promise.all(Array.from({ length: 5 }, () => refundDetached(world, byIdentifier)));
    for (const response of identified) expect(response.body).toEqual(identified[0]!.body);
    expect(await creditOf(world)).toBe(350);
  });

  it('leaves the ledger balanced', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

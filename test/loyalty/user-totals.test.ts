/**
 * The User resource's totals (docs/identity.md, "What the totals count"; shared/domain/identity/user-totals.ts):
 * orders_count, merchants_visited_count and total_savings_amount follow completed orders across merchants,
 * are taken back by refunds, count a replayed or repeated completion once, and count each of a user's
 * concurrent orders once. Kept in the order's own transaction beside the per-merchant totals, which merchant
 * loyalty shows: the two must agree.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { merchantFixture } from '../support/fixtures.ts';
import { locationFixture } from '../support/locations.ts';
import { complete, completeBody, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

type Totals = { orders_count: number; merchants_visited_count: number; total_savings_amount: number };

/** The three totals as GET /v15/users answers them, checked equal on GET /v14/users/:id. */
async function totals(world: OrderWorld): Promise<Totals> {
  const [v15, v14] = await Promise.all([
    api.call('GET', '/v15/users', { token: world.user.token }),
    api.call('GET', `/v14/users/${world.user.user.user_id}`, { token: world.user.token }),
  ]);
  expect(v15.status, v15.text).toBe(200);
  expect(v14.status, v14.text).toBe(200);
  const pick = (body: { user: Totals }): Totals => ({
    orders_count: body.user.orders_count,
    merchants_visited_count: body.user.merchants_visited_count,
    total_savings_amount: body.user.total_savings_amount,
  });
  expect(pick(v14.body)).toEqual(pick(v15.body));
  return pick(v15.body);
}

/** The user's totals at one merchant, as merchant loyalty shows them. */
async function atMerchant(world: OrderWorld): Promise<{ orders_count: number; savings_amount: number }> {
  const response = await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/loyalty`, { token: world.user.token });
  expect(response.status, response.text).toBe(200);
  return { orders_count: response.body.loyalty.orders_count, savings_amount: response.body.loyalty.savings_amount };
}

/** Another merchant of the same (global) app, with a location: the same user orders there. */
async function atAnotherMerchant(world: OrderWorld): Promise<OrderWorld> {
  const merchant = await merchantFixture(world.app.app_id);
  const location = await locationFixture(merchant.merchant.merchant_id);
  return { ...world, merchant, location };
}

async function order(world: OrderWorld, fields: { spend_amount?: number; applied_discount_amount?: number } = {}, headers?: Record<string, string>) {
  const proposed = await propose(api, world, { spend_amount: fields.spend_amount ?? 1000 });
  expect(proposed.status, proposed.text).toBe(200);
  const uuid = proposed.body.proposed_order.uuid as string;
  const completed = await complete(api, world, uuid, fields, { headers });
  expect(completed.status, completed.text).toBe(200);
  return { proposedUuid: uuid, orderUuid: completed.body.order.uuid as string, completed };
}

const refund = (world: OrderWorld, uuid: string) => api.call('POST', `/v14/orders/${uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });

/** Sends the same request again while the answer is a retryable refusal (409/429, or a 503 timeout); bounded. */
async function untilSettled(send: () => Promise<ApiResult>): Promise<ApiResult> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    const timedOut = response.status === 503 && response.body?.[0]?.error?.code === 'timeout';
    if ((response.status !== 409 && response.status !== 429 && !timedOut) || attempt >= 100) return response;
    await sleep(100 + Math.random() * 200);
  }
}

describe('the user totals through orders and refunds', () => {
  let first: OrderWorld;
  let second: OrderWorld;
  const orders: { world: OrderWorld; uuid: string }[] = [];

  beforeAll(async () => {
    // Credit at the first merchant, so an order there can apply a discount (the savings).
    first = await orderWorld({ credit: 2000 });
    // Loyalty at the first merchant: completions write progress too, as in a real shop.
    await campaignFixture(first.merchant.merchant.merchant_id, 'visit');
    second = await atAnotherMerchant(first);
  });

  it('answers zeros before any order (no totals item)', async () => {
    expect(await totals(first)).toEqual({ orders_count: 0, merchants_visited_count: 0, total_savings_amount: 0 });
  });

  it('counts one completed order: 1 order, its savings, 1 merchant', async () => {
    const placed = await order(first, { spend_amount: 1500, applied_discount_amount: 300 });
    orders.push({ world: first, uuid: placed.orderUuid });
    expect(await totals(first)).toEqual({ orders_count: 1, merchants_visited_count: 1, total_savings_amount: 300 });
    expect(await atMerchant(first)).toEqual({ orders_count: 1, savings_amount: 300 });
  });

  it('a second order at the same merchant: 2 orders, still 1 merchant', async () => {
    const placed = await order(first, { spend_amount: 800 });
    orders.push({ world: first, uuid: placed.orderUuid });
    expect(await totals(first)).toEqual({ orders_count: 2, merchants_visited_count: 1, total_savings_amount: 300 });
  });

  it('an order at another merchant: 2 merchants', async () => {
    const placed = await order(second, { spend_amount: 600 });
    orders.push({ world: second, uuid: placed.orderUuid });
    expect(await totals(first)).toEqual({ orders_count: 3, merchants_visited_count: 2, total_savings_amount: 300 });
    expect(await atMerchant(second)).toEqual({ orders_count: 1, savings_amount: 0 });
  });

  it('counts a replayed completion (same Idempotency-Key) and a repeated one (same proposal) once', async () => {
    const key = `totals-${randomUUID()}`;
    const placed = await order(first, { spend_amount: 700, applied_discount_amount: 200 }, { 'Idempotency-Key': key });
    orders.push({ world: first, uuid: placed.orderUuid });
    const replay = await complete(
      api,
      first,
      placed.proposedUuid,
      { spend_amount: 700, applied_discount_amount: 200 },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(replay.status, replay.text).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.order.uuid).toBe(placed.orderUuid);
    // The same proposal completed again without the key: its order again (issue 34.2), nothing counted.
    const again = await complete(api, first, placed.proposedUuid, { spend_amount: 700, applied_discount_amount: 200 });
    expect(again.status, again.text).toBe(200);
    expect(again.body.order.uuid).toBe(placed.orderUuid);
    expect(await totals(first)).toEqual({ orders_count: 4, merchants_visited_count: 2, total_savings_amount: 500 });
    expect(await atMerchant(first)).toEqual({ orders_count: 3, savings_amount: 500 });
  });

  it('a refund takes its order back: one order less, its savings back; the merchant stays visited while another order is there', async () => {
    const [discounted] = orders;
    const response = await refund(first, discounted!.uuid);
    expect(response.status, response.text).toBe(200);
    expect(await totals(first)).toEqual({ orders_count: 3, merchants_visited_count: 2, total_savings_amount: 200 });
    expect(await atMerchant(first)).toEqual({ orders_count: 2, savings_amount: 200 });
    // Refunded again (a repeat, issue 34.2): the refunded order, nothing taken back twice.
    expect((await refund(first, discounted!.uuid)).status).toBe(200);
    expect(await totals(first)).toEqual({ orders_count: 3, merchants_visited_count: 2, total_savings_amount: 200 });
  });

  it('refunding the only order at a merchant takes the merchant off the visited ones; a new order there puts it back', async () => {
    const atSecond = orders.find((entry) => entry.world === second)!;
    expect((await refund(second, atSecond.uuid)).status).toBe(200);
    expect(await totals(first)).toEqual({ orders_count: 2, merchants_visited_count: 1, total_savings_amount: 200 });
    expect(await atMerchant(second)).toEqual({ orders_count: 0, savings_amount: 0 });
    await order(second, { spend_amount: 500 });
    expect(await totals(first)).toEqual({ orders_count: 3, merchants_visited_count: 2, total_savings_amount: 200 });
    expect((await auditLedger()).mismatches).toEqual([]);
  });

  it('a profile update answers the totals too (PUT /v15/users, PUT /v14/users/:id)', async () => {
    const v15 = await api.call('PUT', '/v15/users', { token: first.user.token, body: { user: { first_name: 'Ada' } } });
    expect(v15.status, v15.text).toBe(200);
    expect(v15.body.user).toMatchObject({ first_name: 'Ada', orders_count: 3, merchants_visited_count: 2, total_savings_amount: 200 });
    const v14 = await api.call('PUT', `/v14/users/${first.user.user.user_id}`, { token: first.user.token, body: { user: { last_name: 'Lovelace' } } });
    expect(v14.status, v14.text).toBe(200);
    expect(v14.body.user).toMatchObject({ last_name: 'Lovelace', orders_count: 3, merchants_visited_count: 2, total_savings_amount: 200 });
  });
});

describe('concurrent orders of one user', () => {
  it('counts each committed order once: 4 merchants x 2 orders sent at once', async () => {
    const base = await orderWorld();
    const worlds = [base, ...(await Promise.all([1, 2, 3].map(() => atAnotherMerchant(base))))];
    const proposals: { world: OrderWorld; uuid: string }[] = [];
    for (const world of worlds) {
      for (let index = 0; index < 2; index++) {
        const proposed = await propose(api, world, { spend_amount: 1000 });
        expect(proposed.status, proposed.text).toBe(200);
        proposals.push({ world, uuid: proposed.body.proposed_order.uuid });
      }
    }
    // Orders at different merchants settle at the same time (one merchant's settle one at a time: 409 then retried).
    const finals = await Promise.all(
      proposals.map(({ world, uuid }) =>
        untilSettled(() =>
          api.call('POST', '/v15/completed_orders', {
            token: world.merchant.token,
            headers: { 'Idempotency-Key': `concurrent-${uuid}` },
            body: completeBody(world, uuid, { spend_amount: 1000 }),
          }),
        ),
      ),
    );
    for (const response of finals) expect(response.status, response.text).toBe(200);
    expect(new Set(finals.map((response) => response.body.order.uuid)).size).toBe(8);
    expect(await totals(base)).toEqual({ orders_count: 8, merchants_visited_count: 4, total_savings_amount: 0 });
    for (const world of worlds) expect(await atMerchant(world)).toEqual({ orders_count: 2, savings_amount: 0 });

    // Refunds of all of them at once: every one taken back once.
    const orderUuids = finals.map((response, index) => ({ world: proposals[index]!.world, uuid: response.body.order.uuid as string }));
    const refunds = await Promise.all(orderUuids.map(({ world, uuid }) => untilSettled(() => refund(world, uuid))));
    for (const response of refunds) expect(response.status, response.text).toBe(200);
    expect(await totals(base)).toEqual({ orders_count: 0, merchants_visited_count: 0, total_savings_amount: 0 });
  });
});

describe('orders completed before the totals were kept', () => {
  it('are not taken back by their refund (the totals never go below what was counted)', async () => {
    const world = await orderWorld({ credit: 1000 });
    const earlier = await order(world, { spend_amount: 1000, applied_discount_amount: 400 });
    // As an order of before: its loyalty record without the marker, and no totals item.
    await db().send(new UpdateCommand({ TableName: table(), Key: keys.orderLoyaltyEffects(earlier.orderUuid), UpdateExpression: 'REMOVE user_totals' }));
    await db().send(new DeleteCommand({ TableName: table(), Key: keys.userTotals(world.user.user.user_id) }));
    expect(await totals(world)).toEqual({ orders_count: 0, merchants_visited_count: 0, total_savings_amount: 0 });
    const later = await order(world, { spend_amount: 500 });
    expect(await totals(world)).toEqual({ orders_count: 1, merchants_visited_count: 1, total_savings_amount: 0 });
    expect((await refund(world, earlier.orderUuid)).status).toBe(200);
    expect(await totals(world)).toEqual({ orders_count: 1, merchants_visited_count: 1, total_savings_amount: 0 });
    expect((await refund(world, later.orderUuid)).status).toBe(200);
    expect(await totals(world)).toEqual({ orders_count: 0, merchants_visited_count: 0, total_savings_amount: 0 });
  });
});

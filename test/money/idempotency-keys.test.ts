import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { merchantFixture, userFixture } from '../support/fixtures.ts';
import { complete, completeBody, orderWorld, placeOrder, propose } from '../support/money.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { claimIdempotencyKey } from '#shared/domain/money/idempotency.ts';
import { auditLedger, cardAccountKey, getBalance } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const key = () => ({ 'Idempotency-Key': randomUUID() });

describe('Idempotency-Key on money-moving POSTs', () => {
  it('replays a completed order with Idempotent-Replayed and charges once', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const headers = key();
    const first = await complete(api, world, proposed.body.proposed_order.uuid, {}, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await complete(api, world, proposed.body.proposed_order.uuid, {}, { headers });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await getBalance(cardAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance).toBe(1000);
  });

  it('treats key order in the body as the same request', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const headers = { ...key(), 'Content-Type': 'application/json' };
    const body = completeBody(world, proposed.body.proposed_order.uuid).completed_order;
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await api.call('POST', '/v15/completed_orders', { token: world.merchant.token, headers, body: { completed_order: body } });
    const second = await api.call('POST', '/v15/completed_orders', { token: world.merchant.token, headers, body: { completed_order: reordered } });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('answers 422 to the same key with a different request', async () => {
    const world = await orderWorld();
    const headers = key();
    const first = await propose(api, world, { spend_amount: 1000 }, headers);
    expect(first.status).toBe(200);
    const changed = await propose(api, world, { spend_amount: 1200 }, headers);
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual([
      {
        error: { object: 'request', property: 'idempotency_key', message: 'This Idempotency-Key was already used with a different request.', code: 'mismatch' },
      },
    ]);
  });

  it('answers 409 with Retry-After while the first request is in flight, and proceeds once its lease expired', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const uuid = proposed.body.proposed_order.uuid;
    const headerValue = randomUUID();
    const scope = `merchant:${world.merchant.merchant.merchant_id}`;
    const request = { method: 'POST', path: '/v15/completed_orders', body: completeBody(world, uuid), scope, caller: scope, key: headerValue };
    // A request that has claimed the key and not finished (the state a crashed or slow request leaves).
    expect((await claimIdempotencyKey(request)).kind).toBe('run');
    const blocked = await complete(api, world, uuid, {}, { headers: { 'Idempotency-Key': headerValue } });
    expect(blocked.status).toBe(409);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(blocked.body[0].error).toMatchObject({ object: 'request', property: 'base', code: 'in_flight' });

    const crashedKey = randomUUID();
    expect((await claimIdempotencyKey({ ...request, key: crashedKey }, -1)).kind).toBe('run');
    const recovered = await complete(api, world, uuid, {}, { headers: { 'Idempotency-Key': crashedKey } });
    expect(recovered.status).toBe(200);
  });

  it('runs concurrent requests with one key once', async () => {
    const world = await orderWorld();
    const headers = key();
    const responses = await Promise.all(Array.from({ length: 10 }, () => propose(api, world, {}, headers)));
    const executed = responses.filter((response) => response.status === 200 && response.headers.get('idempotent-replayed') === null);
    expect(executed).toHaveLength(1);
    for (const response of responses) {
      expect([200, 409]).toContain(response.status);
      if (response.status === 200) expect(response.body).toEqual(executed[0]!.body);
    }
  });

  it('stores a 4xx outcome and replays it', async () => {
    const world = await orderWorld({ card: 'declines' });
    const proposed = await propose(api, world);
    const headers = key();
    const declined = await complete(api, world, proposed.body.proposed_order.uuid, {}, { headers });
    expect(declined.status).toBe(422);
    const replay = await complete(api, world, proposed.body.proposed_order.uuid, {}, { headers });
    expect(replay.status).toBe(422);
    expect(replay.text).toBe(declined.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays a refund instead of refusing a second one', async () => {
    const world = await orderWorld();
    const completed = await placeOrder(api, world);
    const headers = key();
    const first = await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token, headers });
    expect(first.status).toBe(200);
    const replay = await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token, headers });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    // Without the key, a repeat of the refund answers the refunded order too (issue 34.2), not replayed by a key.
    const withoutKey = await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: world.merchant.token });
    expect(withoutKey.status).toBe(200);
    expect(withoutKey.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the token subject and rejects keys longer than 255 characters', async () => {
    const world = await orderWorld();
    const other = await merchantFixture(world.app.app_id);
    const headers = key();
    const mine = await propose(api, world, {}, headers);
    const theirs = await api.call('POST', '/v15/proposed_orders', {
      token: other.token,
      headers,
      body: { proposed_order: { location_id: world.location.location_id, payment_token_data: world.user.user.payment_token_data, spend_amount: 1000 } },
    });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(401); // their own request ran (not a mismatch): the location is not theirs (issue 34.3)
    expect(theirs.body[0].error.property).toBe('merchant_token');
    const tooLong = await propose(api, world, {}, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body[0].error).toMatchObject({ object: 'request', property: 'idempotency_key' });
  });

  it("never replays one customer's order to another customer of the same merchant (one POS, one key, two user tokens)", async () => {
    const world = await orderWorld();
    const other = await userFixture(world.app.app_id);
    await addCreditCard(other.user.user_id, `fake-valid-nonce-${randomUUID()}`);
    const merchantId = world.merchant.merchant.merchant_id;
    const headers = key();
    const body = { order: { location_id: world.location.location_id, spend_amount: 700 } };
    const orderFor = (userToken: string) =>
      api.call('POST', '/v15/orders', { authorization: `token merchant="${world.merchant.token}", user="${userToken}"`, headers, body });

    const first = await orderFor(world.user.token);
    expect(first.status, first.text).toBe(200);
    const second = await orderFor(other.token);
    expect(second.status).toBe(422);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body).toEqual([
      {
        error: {
          object: 'request',
          property: 'idempotency_key',
          message: 'This Idempotency-Key was already used by other credentials; use a new key for each customer.',
          code: 'other_caller',
        },
      },
    ]);
    // The first customer's retry still replays; the second paid nothing and is charged once with a key of their own.
    const retry = await orderFor(world.user.token);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
    expect((await getBalance(cardAccountKey(world.user.user.user_id, merchantId))).balance).toBe(700);
    expect((await getBalance(cardAccountKey(other.user.user_id, merchantId))).balance).toBe(0);
    const own = await api.call('POST', '/v15/orders', {
      authorization: `token merchant="${world.merchant.token}", user="${other.token}"`,
      headers: key(),
      body,
    });
    expect(own.status, own.text).toBe(200);
    expect(own.body.order.uuid).not.toBe(first.body.order.uuid);
    expect((await getBalance(cardAccountKey(other.user.user_id, merchantId))).balance).toBe(700);
  });

  it('leaves a ledger that matches every balance', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

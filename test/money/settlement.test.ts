import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, placeOrder, propose, type OrderWorld } from '../support/money.ts';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { settleOrder } from '#shared/domain/orders/settlement.ts';
import { acquireClaim, acquireHold } from '#shared/domain/orders/lease.ts';
import { auditLedger, cardAccountKey, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { getProposedOrder } from '#shared/domain/orders/proposals.ts';
import { createCampaign } from '#shared/domain/loyalty/campaigns.ts';
import { epochSeconds } from '#shared/time.ts';

const api = useTestApi();

const balance = async (world: OrderWorld, kind: 'card' | 'credit') =>
  (await getBalance((kind === 'card' ? cardAccountKey : creditAccountKey)(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance;

describe('settlement saga', () => {
  it('voids the charge and frees the source when the transaction loses after charging; the next try is a new charge', async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const uuid = proposed.body.proposed_order.uuid;
    const failingGuard = { ConditionCheck: { TableName: table(), Key: { pk: 'MISSING', sk: 'MISSING' }, ConditionExpression: 'attribute_exists(pk)' } };
    await expect(
      settleOrder({
        kind: 'in_store',
        source: { key: keys.proposedOrder(uuid), fromState: 'proposed', toState: 'completed', state: 'proposed', uuid },
        merchant: world.merchant.merchant,
        location: world.location,
        userId: world.user.user.user_id,
        appId: world.app.app_id,
        promotedCardId: null,
        terms: {
          spend_amount: 1000,
          tax_amount: 0,
          tip_amount: 0,
          applied_discount_amount: 0,
          exemption_amount: 0,
          partial_authorization_allowed: false,
          discount_only: false,
          items: [],
          fees: [],
        },
        guard: [failingGuard],
      }),
    ).rejects.toMatchObject({ status: 422, details: [expect.objectContaining({ code: 'not_completable' })] });
    const source = (await getProposedOrder(uuid)) as unknown as Record<string, unknown>;
    expect(source).toMatchObject({ state: 'proposed', settlement_attempt: 1 });
    expect(source.settlement_lease_token).toBeUndefined();
    expect(await balance(world, 'card')).toBe(0);

    const completed = await complete(api, world, uuid);
    expect(completed.status).toBe(200);
    expect(await balance(world, 'card')).toBe(1000);
  });

  it('gives back a hold and claim it was handed (Settlement.acquired) when it refuses the order before charging', async () => {
    const world = await orderWorld();
    const uuid = (await propose(api, world)).body.proposed_order.uuid;
    const source = { key: keys.proposedOrder(uuid), fromState: 'proposed', toState: 'completed', state: 'proposed', uuid };
    const [userId, merchantId] = [world.user.user.user_id, world.merchant.merchant.merchant_id];
    const acquired = { hold: await acquireHold(userId, merchantId, uuid), claim: await acquireClaim(source) };
    await expect(
      settleOrder({
        kind: 'in_store',
        source,
        merchant: world.merchant.merchant,
        location: world.location,
        userId,
        appId: world.app.app_id,
        promotedCardId: null,
        terms: {
          spend_amount: 100,
          tax_amount: 0,
          tip_amount: 0,
          applied_discount_amount: 200,
          exemption_amount: 0,
          partial_authorization_allowed: false,
          discount_only: false,
          items: [],
          fees: [],
        },
        acquired,
      }),
    ).rejects.toMatchObject({ status: 422, details: [expect.objectContaining({ code: 'exceeds_spend' })] });
    const after = (await getProposedOrder(uuid)) as unknown as Record<string, unknown>;
    expect(after).toMatchObject({ state: 'proposed', settlement_attempt: 0 });
    expect(after.settlement_lease_token).toBeUndefined();
    expect(
      (await db().send(new GetCommand({ TableName: table(), Key: keys.customerSettlement(userId, merchantId), ConsistentRead: true }))).Item,
    ).toBeUndefined();
    // Nothing is left held: the order completes at once.
    expect((await complete(api, world, uuid)).status).toBe(200);
  });

  it("lets a retry proceed once a crashed completion's lease expired", async () => {
    const world = await orderWorld();
    const proposed = await propose(api, world);
    const uuid = proposed.body.proposed_order.uuid;
    // What a completion that crashed after claiming leaves behind, with its lease still running...
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.proposedOrder(uuid),
        UpdateExpression: 'SET settlement_lease_token = :t, settlement_lease_until = :until, settlement_attempt = :zero',
        ExpressionAttributeValues: { ':t': 'crashed', ':until': epochSeconds() + 30, ':zero': 0 },
      }),
    );
    const blocked = await complete(api, world, uuid);
    expect(blocked.status).toBe(409);
    expect(blocked.body[0].error).toMatchObject({ object: 'order', property: 'base', code: 'in_progress' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // ...and once it has run out.
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: keys.proposedOrder(uuid),
        UpdateExpression: 'SET settlement_lease_until = :past',
        ExpressionAttributeValues: { ':past': epochSeconds() - 1 },
      }),
    );
    const recovered = await complete(api, world, uuid);
    expect(recovered.status).toBe(200);
    expect(await balance(world, 'card')).toBe(1000);
  });
});

describe('credit earned through loyalty', () => {
  const spendTenEarnFive = (world: OrderWorld) =>
    createCampaign({
      merchant_id: world.merchant.merchant.merchant_id,
      kind: 'spend',
      title: 'Spend $10, get $5',
      required_spend_amount: 1000,
      earn_amount: 500,
    });

  it('credits what loyalty earns in the completion transaction and reverses it on refund', async () => {
    const world = await orderWorld();
    await spendTenEarnFive(world);
    const earned = await placeOrder(api, world, { spend_amount: 1000 });
    expect(earned.status).toBe(200);
    expect(await balance(world, 'credit')).toBe(500);
    const detail = await api.call('GET', `/v15/orders/${earned.body.order.uuid}`, { token: world.user.token });
    expect(detail.body.order.credit_earned_amount).toBe(500);

    const refunded = await api.call('POST', `/v14/orders/${earned.body.order.uuid}/refund`, { token: world.merchant.token });
    expect(refunded.status).toBe(200);
    expect(refunded.body.order.earn_amount).toBe(500);
    expect(await balance(world, 'credit')).toBe(0);
  });

  it('claws back earned credit already spent: the refund goes ahead and the credit balance goes negative', async () => {
    const world = await orderWorld();
    await spendTenEarnFive(world);
    const earned = await placeOrder(api, world, { spend_amount: 1000 });
    expect(await balance(world, 'credit')).toBe(500);
    const spending = await placeOrder(api, world, { spend_amount: 400, applied_discount_amount: 300 });
    expect(spending.status).toBe(200);
    expect(await balance(world, 'credit')).toBe(200);

    const refunded = await api.call('POST', `/v14/orders/${earned.body.order.uuid}/refund`, { token: world.merchant.token });
    expect(refunded.status).toBe(200);
    expect(await balance(world, 'credit')).toBe(200 - 500);
    expect(await balance(world, 'card')).toBe(100);
  });

  it('leaves a ledger that matches every balance (only credit may be negative)', async () => {
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

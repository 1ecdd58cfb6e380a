/**
 * Refund claw-back (docs/money.md, "Refunds"; issue 12.9): refunding an order takes back the credit it
 * earned even when the user already spent it. The credit balance may go negative; later earnings repay
 * it first; the ledger audit still balances.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { campaignFixture } from '../support/loyalty.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';

const api = useTestApi();

const credit = (world: OrderWorld) =>
  getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id)).then((balance) => balance.balance);

/** Proposes and completes a check; returns the discount offered and the completed order's uuid. */
async function check(world: OrderWorld, spendAmount: number, applyOffered = false) {
  const proposed = await propose(api, world, { spend_amount: spendAmount });
  expect(proposed.status, proposed.text).toBe(200);
  const offered = proposed.body.proposed_order.discount_amount as number;
  const completed = await complete(api, world, proposed.body.proposed_order.uuid, {
    spend_amount: spendAmount,
    applied_discount_amount: applyOffered ? offered : 0,
  });
  expect(completed.status, completed.text).toBe(200);
  return { offered, uuid: completed.body.order.uuid as string };
}

const refund = (world: OrderWorld, uuid: string) => api.call('POST', `/v14/orders/${uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });

async function earnedRewards(world: OrderWorld) {
  const response = await api.call('GET', `/v15/merchants/${world.merchant.merchant.merchant_id}/rewards`, { token: world.user.token });
  expect(response.status).toBe(200);
  return (response.body as { reward: { id: string; value_remaining_amount: number | null; usable: boolean } }[])
    .map((entry) => entry.reward)
    .filter((reward) => reward.id.startsWith('earned-'));
}

describe('refund claw-back', () => {
  it('takes back spent earned credit (the balance goes negative), lets later earnings repay it first, and keeps the audit at 0', async () => {
    const world = await orderWorld();
    // Spend $10, earn $5.
    await campaignFixture(world.merchant.merchant.merchant_id, 'spend', { required_spend_amount: 1000, earn_amount: 500 });

    // Order 1 earns 500; order 2 spends it (and brings 500 of progress).
    const earning = await check(world, 1000);
    expect(await credit(world)).toBe(500);
    const spending = await check(world, 500, true);
    expect(spending.offered).toBe(500);
    expect(await credit(world)).toBe(0);

    // Refunding order 1 takes its 500 back although it was spent.
    const refunded = await refund(world, earning.uuid);
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.order.earn_amount).toBe(500);
    expect(await credit(world)).toBe(-500);
    expect((await earnedRewards(world)).filter((reward) => reward.usable)).toEqual([]);
    expect((await auditLedger()).mismatches).toEqual([]);

    // While in debt the customer is offered no discount, and cannot apply any.
    const proposed = await propose(api, world, { spend_amount: 800 });
    expect(proposed.body.proposed_order.discount_amount).toBe(0);
    const applying = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: 800, applied_discount_amount: 100 });
    expect(applying.status).toBe(422);
    expect(applying.body[0].error).toMatchObject({ object: 'order', property: 'applied_discount_amount', code: 'exceeds_available' });

    // Later earnings repay the debt first: 500 of progress + 1500 = two rewards (1000), of which 500 repays.
    const repaying = await check(world, 1500);
    expect(repaying.offered).toBe(0);
    expect(await credit(world)).toBe(500);
    expect((await propose(api, world, { spend_amount: 2000 })).body.proposed_order.discount_amount).toBe(500);

    // Refunding the order that applied the credit restores it (and the audit still balances).
    const refundedSpending = await refund(world, spending.uuid);
    expect(refundedSpending.status, refundedSpending.text).toBe(200);
    expect(await credit(world)).toBe(1000);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

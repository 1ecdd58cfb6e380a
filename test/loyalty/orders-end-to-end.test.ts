import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, propose, type OrderWorld } from '../support/money.ts';
import { loyaltyWorld } from '../support/loyalty.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { pausedCreditAccountKey } from '#shared/domain/loyalty/rewards.ts';

const api = useTestApi();
let world: OrderWorld;
let merchantId: number;
let spend: CampaignItem;
let item: CampaignItem;
let visit: CampaignItem;

beforeAll(async () => {
  ({
    world,
    merchantId,
    campaigns: { spend, item, visit },
  } = await loyaltyWorld(['spend', 'item', 'visit']));
});

const coffees = (quantity: number) => [
  { item: { name: 'Latte', description: 'Hot latte', sku: 'COFFEE-12', category: 'Drinks', quantity, charged_price_amount: 400 * quantity } },
];
const muffin = [{ item: { name: 'Muffin', description: 'Blueberry', sku: 'MUFFIN', category: 'Bakery', quantity: 1, charged_price_amount: 300 } }];

/** Proposes and completes a paid order through the API; returns the proposal's discount and the completed order. */
async function pay(spendAmount: number, items: unknown[], applyDiscount = false) {
  const proposed = await propose(api, world, { spend_amount: spendAmount, items });
  expect(proposed.status, proposed.text).toBe(200);
  const discount = proposed.body.proposed_order.discount_amount as number;
  const completed = await complete(api, world, proposed.body.proposed_order.uuid, {
    spend_amount: spendAmount,
    applied_discount_amount: applyDiscount ? discount : 0,
    items,
  });
  expect(completed.status, completed.text).toBe(200);
  return { discount, order: completed.body.order as { uuid: string } };
}

async function progress() {
  const token = world.user.token;
  const [spendView, itemView, visitView] = await Promise.all([
    api.call('GET', `/v15/campaigns/${spend.campaign_id}/spend_based_loyalty_v1`, { token }),
    api.call('GET', `/v15/campaigns/${item.campaign_id}/item_based_loyalty_v1`, { token }),
    api.call('GET', `/v15/campaigns/${visit.campaign_id}/visit_based_loyalty_v1`, { token }),
  ]);
  return {
    spend: spendView.body.campaign.progress_amount,
    items: itemView.body.campaign.progress_item_count,
    visits: visitView.body.campaign.progress_visit_count,
  };
}

async function heldRewards() {
  const response = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token: world.user.token });
  expect(response.status).toBe(200);
  return (
    response.body as {
      reward: { id: string; source_campaign_id: number; value_amount: number; value_remaining_amount: number | null; earned: boolean; usable: boolean };
    }[]
  )
    .map((entry) => entry.reward)
    .filter((reward) => reward.id.startsWith('earned-'));
}

const credit = async () => (await getBalance(creditAccountKey(world.user.user.user_id, merchantId))).balance;

describe('loyalty through orders, end to end', () => {
  let applyingOrder: string;
  let visitOrder: string;

  it('accrues spend, item and visit progress from completed orders and shows it in each representation', async () => {
    await pay(2000, coffees(3));
    expect(await progress()).toEqual({ spend: 2000, items: 3, visits: 1 });
    // Below the visit minimum (500) and without coffee: only spend moves.
    await pay(400, muffin);
    expect(await progress()).toEqual({ spend: 2400, items: 3, visits: 1 });
  });

  it('earns a reward when each requirement is reached, keeps the remainder, and lists the rewards', async () => {
    await pay(2800, coffees(2));
    expect(await progress()).toEqual({ spend: 200, items: 0, visits: 2 });
    visitOrder = (await pay(600, muffin)).order.uuid;
    expect(await progress()).toEqual({ spend: 800, items: 0, visits: 0 });

    const rewards = await heldRewards();
    expect(
      rewards.map((reward) => [reward.source_campaign_id, reward.value_amount, reward.value_remaining_amount, reward.earned, reward.usable]).sort(),
    ).toEqual(
      [
        [spend.campaign_id, 500, 500, true, true],
        [item.campaign_id, 300, 300, true, true],
        [visit.campaign_id, 400, 400, true, true],
      ].sort(),
    );
    expect(await credit()).toBe(1200);
  });

  it('offers the earned credit as the next proposed order discount, and applying it uses the rewards up', async () => {
    const { discount, order } = await pay(2000, muffin, true);
    expect(discount).toBe(1200);
    applyingOrder = order.uuid;
    expect(await credit()).toBe(0);
    expect((await heldRewards()).every((reward) => reward.value_remaining_amount === 0 && !reward.usable)).toBe(true);
    const next = await propose(api, world, { spend_amount: 1000 });
    expect(next.body.proposed_order.discount_amount).toBe(0);
    // The applying order itself accrued: 2000 spend, one visit.
    expect(await progress()).toEqual({ spend: 2800, items: 0, visits: 1 });
  });

  it('a refund of the applying order puts the credit and the progress back', async () => {
    const refund = await api.call('POST', `/v14/orders/${applyingOrder}/refund`, { token: world.merchant.token });
    expect(refund.status, refund.text).toBe(200);
    expect(await credit()).toBe(1200);
    expect((await heldRewards()).map((reward) => reward.value_remaining_amount).sort()).toEqual([300, 400, 500]);
    expect(await progress()).toEqual({ spend: 800, items: 0, visits: 0 });
  });

  it('a refund of the order that earned an unused reward takes the reward back and restores the progress before it', async () => {
    const refund = await api.call('POST', `/v14/orders/${visitOrder}/refund`, { token: world.merchant.token });
    expect(refund.status, refund.text).toBe(200);
    expect(await progress()).toEqual({ spend: 200, items: 0, visits: 2 });
    expect(await credit()).toBe(800);
    expect((await heldRewards()).map((reward) => reward.source_campaign_id).sort()).toEqual([spend.campaign_id, item.campaign_id].sort());
  });

  it('leaves the ledger consistent', async () => {
    const audit = await auditLedger();
    expect(audit.mismatches).toEqual([]);
  });
});

describe('a refund of an order whose rewards the customer paused', () => {
  it('takes back every paused reward in one balance change: 200, nothing left paused, the ledger consistent', async () => {
    const { world: own, merchantId: ownMerchant } = await loyaltyWorld(['spend', 'item']);
    const items = coffees(5);
    const proposed = await propose(api, own, { spend_amount: 5000, items });
    expect(proposed.status, proposed.text).toBe(200);
    const completed = await complete(api, own, proposed.body.proposed_order.uuid, { spend_amount: 5000, applied_discount_amount: 0, items });
    expect(completed.status, completed.text).toBe(200);

    const listed = await api.call('GET', `/v15/merchants/${ownMerchant}/rewards`, { token: own.user.token });
    const earned = (listed.body as { reward: { id: string } }[]).map((entry) => entry.reward.id).filter((id) => id.startsWith('earned-'));
    expect(earned).toHaveLength(2);
    for (const id of earned) expect((await api.call('PUT', `/v15/rewards/${id}/pause`, { token: own.user.token })).status).toBe(200);
    const paused = pausedCreditAccountKey(own.user.user.user_id, ownMerchant);
    expect((await getBalance(paused)).balance).toBe(800);

    const refund = await api.call('POST', `/v14/orders/${completed.body.order.uuid}/refund`, { token: own.merchant.token });
    expect(refund.status, refund.text).toBe(200);
    expect((await getBalance(paused)).balance).toBe(0);
    expect((await getBalance(creditAccountKey(own.user.user.user_id, ownMerchant))).balance).toBe(0);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

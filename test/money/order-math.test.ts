/**
 * Order math is bounded and reconciled (docs/money.md, "Order math"; issue 12.1): item quantities and
 * amounts past their documented bounds are 422 in the error format and change nothing; loyalty earns
 * from an order only what its reconciled spend and the per-order cap allow.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, propose, type OrderWorld } from '../support/money.ts';
import { loyaltyWorld } from '../support/loyalty.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { setChargeLimits } from '../../scripts/admin/money-settings.ts';
import { MAX_ORDER_CREDIT_EARNED } from '#shared/domain/loyalty/order-effects.ts';
import { MAX_ITEM_QUANTITY, MAX_ORDER_UNITS } from '#shared/schemas/money.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();

/** A world whose merchant runs the item campaign (5 coffees earn 300) and the spend campaign ($50 earns $5). */
async function campaignWorld() {
  const {
    world,
    campaigns: { item, spend },
  } = await loyaltyWorld(['item', 'spend']);
  return { world, item, spend };
}

const coffee = (quantity: unknown, chargedPriceAmount: unknown = 0, extra: Record<string, unknown> = {}) => ({
  item: { name: 'Latte', description: 'Hot latte', sku: 'COFFEE-12', category: 'Drinks', quantity, charged_price_amount: chargedPriceAmount, ...extra },
});

const credit = (world: OrderWorld) =>
  getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id)).then((balance) => balance.balance);

async function itemProgress(world: OrderWorld, campaign: CampaignItem): Promise<number> {
  const view = await api.call('GET', `/v15/campaigns/${campaign.campaign_id}/item_based_loyalty_v1`, { token: world.user.token });
  expect(view.status, view.text).toBe(200);
  return view.body.campaign.progress_item_count as number;
}

/** Proposes and completes one check through the API with these items; returns the completion. */
async function check(world: OrderWorld, spendAmount: number, items: unknown[]) {
  const proposed = await propose(api, world, { spend_amount: spendAmount, items });
  expect(proposed.status, proposed.text).toBe(200);
  return complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: spendAmount, items });
}

function expectItemsError(response: { status: number; body: unknown; text: string }, object: string) {
  expect(response.status, response.text).toBe(422);
  const errors = response.body as { error: { object: string; property: string; message: string; code?: string } }[];
  expect(errors.length).toBeGreaterThan(0);
  for (const { error } of errors) {
    expect(error.object).toBe(object);
    expect(error.property).toMatch(/^items/);
  }
}

describe('order math is bounded', () => {
  let world: OrderWorld;
  let item: CampaignItem;
  let proposedUuid: string;

  beforeAll(async () => {
    ({ world, item } = await campaignWorld());
    const proposed = await propose(api, world, { spend_amount: 0, items: [] });
    expect(proposed.status, proposed.text).toBe(200);
    proposedUuid = proposed.body.proposed_order.uuid;
  });

  // 1e12 (the attack of issue 12), past 2^53, far past it, zero, negative, fractional, one past the bound.
  const badQuantities: [string, unknown][] = [
    ['1e12', 1e12],
    ['2^53 + 2', 2 ** 53 + 2],
    ['1e300', 1e300],
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    [`${MAX_ITEM_QUANTITY + 1}`, MAX_ITEM_QUANTITY + 1],
  ];

  it.each(badQuantities)('answers 422 to an item quantity of %s on a check of 0 cents, proposed or completed, and earns nothing', async (_, quantity) => {
    const proposed = await propose(api, world, { spend_amount: 0, items: [coffee(quantity)] });
    expectItemsError(proposed, 'proposed_order');
    const completed = await complete(api, world, proposedUuid, { spend_amount: 0, items: [coffee(quantity)] });
    expectItemsError(completed, 'completed_order');
    expect(await credit(world)).toBe(0);
    expect(await itemProgress(world, item)).toBe(0);
  });

  it('answers 422 to a child quantity past the bound and to an order past the unit bound (quantities multiply down the children)', async () => {
    const deepChild = await propose(api, world, { spend_amount: 100, items: [coffee(1, 100, { children: [coffee(2 ** 60, 0)] })] });
    expectItemsError(deepChild, 'proposed_order');
    // A million lattes with 101 shots each: 1e6 + 1.01e8 units, past MAX_ORDER_UNITS.
    const multiplied = await propose(api, world, { spend_amount: 100, items: [coffee(MAX_ITEM_QUANTITY, 100, { children: [coffee(101, 0)] })] });
    expectItemsError(multiplied, 'proposed_order');
    expect(MAX_ITEM_QUANTITY * 102).toBeGreaterThan(MAX_ORDER_UNITS);
  });

  it('answers 422 to line, fee and check amounts past the safe range', async () => {
    expectItemsError(await propose(api, world, { spend_amount: 100, items: [coffee(1, 1e16)] }), 'proposed_order');
    expectItemsError(await propose(api, world, { spend_amount: 100, items: [coffee(1, 100, { standard_price_amount: 2 ** 53 + 2 })] }), 'proposed_order');
    const fee = await complete(api, world, proposedUuid, {
      spend_amount: 0,
      fees: [{ fee: { type: 'custom', charged_price_amount: 1e300, collector: 'merchant' } }],
    });
    expect(fee.status, fee.text).toBe(422);
    expect(fee.body[0].error.property).toMatch(/^fees/);
    const spend = await propose(api, world, { spend_amount: 2 ** 53 + 2 });
    expect(spend.status, spend.text).toBe(422);
    expect(spend.body[0].error).toMatchObject({ object: 'proposed_order', property: 'spend_amount' });
    const tip = await complete(api, world, proposedUuid, { spend_amount: 0, tip_amount: 1e20 });
    expect(tip.status, tip.text).toBe(422);
    expect(tip.body[0].error).toMatchObject({ object: 'completed_order', property: 'tip_amount' });
  });

  it('accepts the bound itself', async () => {
    const response = await check(world, 2000, [coffee(MAX_ITEM_QUANTITY, 2000)]);
    expect(response.status, response.text).toBe(200);
  });
});

describe('loyalty earns only what the reconciled check allows', () => {
  it("earns nothing from the item campaign's SKU on a $0 check, at the largest quantity accepted", async () => {
    const { world, item } = await campaignWorld();
    const response = await check(world, 0, [coffee(MAX_ITEM_QUANTITY, 0), coffee(MAX_ITEM_QUANTITY, 5000)]);
    expect(response.status, response.text).toBe(200);
    expect(await itemProgress(world, item)).toBe(0);
    expect(await credit(world)).toBe(0);
  });

  it("accepts 10,000 of one item (the C# SDK's quantity; issue 34.4) and counts only the 7 cents the line was charged", async () => {
    const { world, item } = await campaignWorld();
    const response = await check(world, 500, [coffee(10_000, 7)]);
    expect(response.status, response.text).toBe(200);
    // 7 units: one reward of 300 (5 coffees) and 2 toward the next; by quantity it would be 2,000 rewards.
    expect(await itemProgress(world, item)).toBe(2);
    expect(await credit(world)).toBe(300);
  });

  it("counts at most one unit per cent a line was charged, and no more units than the check's qualifying spend", async () => {
    const { world, item } = await campaignWorld();
    // 10 lattes charged 3 cents in all: 3 units.
    expect((await check(world, 1000, [coffee(10, 3)])).status).toBe(200);
    expect(await itemProgress(world, item)).toBe(3);
    // 4 lattes charged 4000 on a check of 2 cents (the rest paid elsewhere): 2 units, 5 in all, one reward.
    expect((await check(world, 2, [coffee(4, 4000)])).status).toBe(200);
    expect(await itemProgress(world, item)).toBe(0);
    expect(await credit(world)).toBe(300);
  });

  it('earns at most the documented per-order cap, from many units or a huge spend', async () => {
    const { world } = await campaignWorld();
    // A million lattes charged $10 on a $10 check: 1000 units count, 200 rewards of 300 would be 60,000; the cap holds it.
    const units = await check(world, 1000, [coffee(MAX_ITEM_QUANTITY, 1000)]);
    expect(units.status, units.text).toBe(200);
    expect(await credit(world)).toBe(MAX_ORDER_CREDIT_EARNED);

    const { world: spender } = await campaignWorld();
    // $1M charged to the card: 10% would be $100,000 of credit; the cap holds it. (The app raises its card
    // charge limits for it: the defaults refuse a $1M charge, test/money/charge-limits.test.ts.)
    await setChargeLimits({ appId: spender.app.app_id }, { per_order_amount: 100_000_000, monthly_amount: 100_000_000 });
    const spend = await check(spender, 100_000_000, []);
    expect(spend.status, spend.text).toBe(200);
    expect(await credit(spender)).toBe(MAX_ORDER_CREDIT_EARNED);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

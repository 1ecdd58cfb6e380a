import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { campaignFixture, uniqueCode } from '../support/loyalty.ts';
import { auditLedger, creditAccountKey, getBalance } from '#shared/domain/money/ledger.ts';
import { accrue, qualifyingItemCount } from '#shared/domain/loyalty/progress.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import type { ProgressItem } from '#shared/domain/loyalty/user-state.ts';
import { pausedCreditAccountKey } from '#shared/domain/loyalty/rewards.ts';

const api = useTestApi();

async function pay(world: OrderWorld, spendAmount: number, items: unknown[] = [], extra: Record<string, unknown> = {}) {
  const proposed = await propose(api, world, { spend_amount: spendAmount, items, ...extra });
  expect(proposed.status, proposed.text).toBe(200);
  const completed = await complete(api, world, proposed.body.proposed_order.uuid, { spend_amount: spendAmount, items, ...extra });
  expect(completed.status, completed.text).toBe(200);
  return completed.body.order.uuid as string;
}

const view = async (world: OrderWorld, campaign: CampaignItem, type: string) => {
  const response = await api.call('GET', `/v15/campaigns/${campaign.campaign_id}/${type}`, { token: world.user.token });
  expect(response.status).toBe(200);
  return response.body.campaign;
};

describe('progress rules', () => {
  it('gift card loyalty starts a progress period with the first qualifying order and earns within it', async () => {
    const world = await orderWorld();
    const campaign = await campaignFixture(world.merchant.merchant.merchant_id, 'item_gift_card');
    const bagels = (quantity: number) => [{ item: { name: 'Bagel', description: 'Plain', quantity, charged_price_amount: 150 * quantity } }];
    await pay(world, 450, bagels(3));
    const first = await view(world, campaign, 'item_based_gift_card_loyalty_v1');
    expect(first.progress_item_count).toBe(3);
    expect(Date.parse(first.progress_period_resets_at) - Date.parse(first.progress_period_starts_at)).toBe(30 * 86_400_000);
    await pay(world, 300, bagels(2));
    const second = await view(world, campaign, 'item_based_gift_card_loyalty_v1');
    expect(second.progress_item_count).toBe(1);
    expect(second.progress_period_starts_at).toBe(first.progress_period_starts_at);
    expect((await getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance).toBe(200);
  });

  it('spend progress counts spend net of exemptions; visits need the minimum order spend', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const spend = await campaignFixture(merchantId, 'spend_gift_card');
    const visit = await campaignFixture(merchantId, 'visit');
    await pay(world, 1000, [], { exemption_amount: 600 });
    expect((await view(world, spend, 'spend_based_gift_card_loyalty_v1')).progress_amount).toBe(400);
    expect((await view(world, visit, 'visit_based_loyalty_v1')).progress_visit_count).toBe(0);
  });

  it('custom progress accomplishes goals and earns each goal reward once', async () => {
    const world = await orderWorld();
    const campaign = await campaignFixture(world.merchant.merchant.merchant_id, 'custom_progress');
    await pay(world, 2500);
    const shown = await view(world, campaign, 'custom_progress_based_v1');
    expect(shown.current_progress).toBe(2500);
    expect(shown.goals.map((entry: { goal: { accomplished: boolean } }) => entry.goal.accomplished)).toEqual([true, false]);
    await pay(world, 3000);
    const later = await view(world, campaign, 'custom_progress_based_v1');
    expect(later.current_progress).toBe(5500);
    expect(later.goals.map((entry: { goal: { accomplished: boolean } }) => entry.goal.accomplished)).toEqual([true, true]);
    // Bronze pays 100 once; Silver pays nothing.
    expect((await getBalance(creditAccountKey(world.user.user.user_id, world.merchant.merchant.merchant_id))).balance).toBe(100);
  });

  it('opt-in campaigns accrue only after the user claims their code; locked ones only once unlocked', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const optIn = await campaignFixture(merchantId, 'spend', { requires_opt_in: true, cohort_code: uniqueCode('JOIN') });
    const locked = await campaignFixture(merchantId, 'spend', { locked: true });
    await pay(world, 1000);
    expect((await view(world, optIn, 'spend_based_loyalty_v1')).progress_amount).toBe(0);
    expect((await api.call('POST', `/v15/codes/${optIn.cohort_code}/claims`, { token: world.user.token })).body.claim).toMatchObject({
      value_amount: 0,
      value_remaining_amount: 0,
    });
    const unlock = await api.call('POST', '/v15/campaign_unlockings', {
      token: world.merchant.token,
      body: { campaign_unlocking: { target_campaign_id: locked.campaign_id, email: world.user.email } },
    });
    expect(unlock.status).toBe(204);
    await pay(world, 1000);
    expect((await view(world, optIn, 'spend_based_loyalty_v1')).progress_amount).toBe(1000);
    expect((await view(world, locked, 'spend_based_loyalty_v1')).progress_amount).toBe(1000);
  });

  it('refunding an order whose earned reward is paused takes the reward back from the paused credit', async () => {
    const world = await orderWorld();
    const merchantId = world.merchant.merchant.merchant_id;
    const userId = world.user.user.user_id;
    const campaign = await campaignFixture(merchantId, 'spend');
    const orderUuid = await pay(world, 5000);
    const rewards = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token: world.user.token });
    const earned = rewards.body.find((entry: { reward: { id: string } }) => entry.reward.id.startsWith('earned-')).reward;
    expect(earned).toMatchObject({ source_campaign_id: campaign.campaign_id, value_amount: 500, earned: true });
    expect((await api.call('PUT', `/v15/rewards/${earned.id}/pause`, { token: world.user.token })).status).toBe(200);
    expect((await api.call('POST', `/v14/orders/${orderUuid}/refund`, { token: world.merchant.token })).status).toBe(200);
    expect((await getBalance(creditAccountKey(userId, merchantId))).balance).toBe(0);
    expect((await getBalance(pausedCreditAccountKey(userId, merchantId))).balance).toBe(0);
    expect((await view(world, campaign, 'spend_based_loyalty_v1')).progress_amount).toBe(0);
    const after = await api.call('GET', `/v15/merchants/${merchantId}/rewards`, { token: world.user.token });
    expect(after.body.map((entry: { reward: { id: string } }) => entry.reward.id)).not.toContain(earned.id);
    expect((await auditLedger()).mismatches).toEqual([]);
  });
});

describe('progress arithmetic', () => {
  const campaign = {
    campaign_id: 1,
    kind: 'spend_gift_card',
    required_spend_amount: 1000,
    earn_amount: 100,
    progress_period_days: 7,
    qualifying_order_spend_amount: null,
    item_rules: [],
    goals: [],
    reward_title: 'r',
  } as unknown as CampaignItem;

  it('resets gift card progress when the period has ended and starts a new one', () => {
    const previous = {
      progress: 900,
      period_starts_at: '2024-01-01T00:00:00Z',
      period_resets_at: '2024-01-08T00:00:00Z',
      goals_rewarded: [],
      version: 3,
    } as unknown as ProgressItem;
    const accrual = accrue(campaign, previous, { qualifyingSpendAmount: 300, items: [] }, new Date('2024-01-09T12:00:00Z'))!;
    expect(accrual.next).toEqual({
      progress: 300,
      period_starts_at: '2024-01-09T12:00:00+00:00',
      period_resets_at: '2024-01-16T12:00:00+00:00',
      goals_rewarded: [],
    });
    expect(accrual.earned).toEqual([]);
  });

  it('earns several rewards when one order covers the requirement several times, keeping the remainder', () => {
    const accrual = accrue(campaign, undefined, { qualifyingSpendAmount: 2550, items: [] }, new Date('2024-01-01T00:00:00Z'))!;
    expect(accrual.next.progress).toBe(550);
    expect(accrual.earned).toEqual([{ amount: 200, count: 2, goalId: null, title: 'r' }]);
  });

  it('counts qualifying items by sku, category or name (case-insensitive), including modifiers times their parent quantity', () => {
    const rules = [
      { field: 'sku', value: 'coffee-12' },
      { field: 'category', value: 'Coffee' },
      { field: 'name', value: 'Extra shot' },
    ] as const;
    const items = [
      {
        name: 'Latte',
        description: '',
        sku: 'COFFEE-12',
        quantity: 2,
        charged_price_amount: 800,
        children: [{ name: 'extra shot', description: '', charged_price_amount: 50 }],
      },
      { name: 'Drip', description: '', category: 'coffee', quantity: 1, charged_price_amount: 200 },
      { name: 'Muffin', description: '', sku: 'MUFFIN', quantity: 3, charged_price_amount: 900 },
    ];
    expect(qualifyingItemCount(items, [...rules])).toBe(5);
  });
});

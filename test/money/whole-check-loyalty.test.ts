/**
 * Loyalty accrues on the check's whole spend (contract rules 4 and 5; docs/money.md, "Loyalty on the whole
 * check"; issue 11.2): a loyalty-only check (no payment method, partial authorization) and a discount-only
 * check each add their whole spend (spend_amount less exemption_amount) to spend progress and one visit,
 * whatever tender paid for it; a refund takes it back the same way.
 */
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../support/api.ts';
import { complete, orderWorld, propose, type OrderWorld } from '../support/money.ts';
import { campaignFixture } from '../support/loyalty.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';

const api = useTestApi();

async function loyaltyWorld(options: Parameters<typeof orderWorld>[0]) {
  const world = await orderWorld(options);
  const merchantId = world.merchant.merchant.merchant_id;
  // Spend $50 for $5; 3 visits of at least $5 for $4: neither is reached below.
  const spend = await campaignFixture(merchantId, 'spend');
  const visit = await campaignFixture(merchantId, 'visit');
  return { world, spend, visit };
}

async function progress(world: OrderWorld, spend: CampaignItem, visit: CampaignItem) {
  const [spendView, visitView] = await Promise.all([
    api.call('GET', `/v15/campaigns/${spend.campaign_id}/spend_based_loyalty_v1`, { token: world.user.token }),
    api.call('GET', `/v15/campaigns/${visit.campaign_id}/visit_based_loyalty_v1`, { token: world.user.token }),
  ]);
  expect(spendView.status, spendView.text).toBe(200);
  return { spend: spendView.body.campaign.progress_amount as number, visits: visitView.body.campaign.progress_visit_count as number };
}

async function check(world: OrderWorld, fields: Record<string, unknown>) {
  const proposed = await propose(api, world, fields);
  expect(proposed.status, proposed.text).toBe(200);
  const completed = await complete(api, world, proposed.body.proposed_order.uuid, fields);
  expect(completed.status, completed.text).toBe(200);
  return completed.body.order as { uuid: string; spend_amount: number; total_amount: number };
}

const refund = (world: OrderWorld, uuid: string) => api.call('POST', `/v14/orders/${uuid}/refund`, { token: world.merchant.token, body: { refund: {} } });

/** The order's refund answers 200 and leaves no spend progress and no visit. */
async function expectRefundTakesBack(world: OrderWorld, uuid: string, spend: CampaignItem, visit: CampaignItem) {
  const refunded = await refund(world, uuid);
  expect(refunded.status, refunded.text).toBe(200);
  expect(await progress(world, spend, visit)).toEqual({ spend: 0, visits: 0 });
}

describe('loyalty on the whole check', () => {
  it('a loyalty-only check (no payment method, partial authorization) adds its whole spend and one visit; its refund takes them back', async () => {
    const { world, spend, visit } = await loyaltyWorld({ card: 'none' });
    const order = await check(world, { spend_amount: 2400, exemption_amount: 400, partial_authorization_allowed: true });
    // Rule 4: approved for the applied discount only (none here); the rest is paid by another tender.
    expect(order.spend_amount).toBe(0);
    expect(await progress(world, spend, visit)).toEqual({ spend: 2000, visits: 1 });

    await expectRefundTakesBack(world, order.uuid, spend, visit);
  });

  it('a discount-only check adds its whole spend and one visit, not only the discount applied; its refund takes them back', async () => {
    const { world, spend, visit } = await loyaltyWorld({ card: 'valid', credit: 300 });
    const order = await check(world, { spend_amount: 1500, applied_discount_amount: 300, discount_only: true, partial_authorization_allowed: true });
    // Rule 5: only the discount is applied; the rest is collected by other payment.
    expect(order.spend_amount).toBe(300);
    expect(await progress(world, spend, visit)).toEqual({ spend: 1500, visits: 1 });

    await expectRefundTakesBack(world, order.uuid, spend, visit);
  });

  it('a partially authorized check accrues on its whole spend too', async () => {
    const { world, spend, visit } = await loyaltyWorld({ card: 'limited-funds' });
    const order = await check(world, { spend_amount: 3000, partial_authorization_allowed: true });
    expect(order.spend_amount).toBe(1500);
    expect(await progress(world, spend, visit)).toEqual({ spend: 3000, visits: 1 });
  });
});

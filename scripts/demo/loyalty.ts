/**
 * Demo loyalty data for the demo merchant: one campaign of each progress kind, a $5 welcome code, a
 * locked VIP campaign, and a legacy campaign with one unclaimed card (see docs/loyalty.md).
 */
import { createCampaign } from '#shared/domain/loyalty/campaigns.ts';
import { importLegacyCards } from '#shared/domain/loyalty/claims.ts';
import type { DemoContext } from './context.ts';

export const DEMO_ITEM_SKU = 'COFFEE-12';
export const DEMO_COHORT_CODE = 'WELCOME5';
export const DEMO_LEGACY_ID = 'PUNCH-1001';

export async function seedLoyalty(context: DemoContext): Promise<Record<string, unknown>> {
  const merchantId = context.merchant.id;
  const spend = await createCampaign({
    merchant_id: merchantId,
    kind: 'spend',
    title: 'Spend $50, get $5',
    description: 'Spend $50 and get $5 of credit',
    required_spend_amount: 5000,
    earn_amount: 500,
    reward_title: '$5 credit',
  });
  const item = await createCampaign({
    merchant_id: merchantId,
    kind: 'item',
    title: 'Coffee club',
    description: 'Buy 5 coffees, the next is on us',
    required_item_count: 5,
    earn_amount: 350,
    item_rules: [
      { field: 'sku', value: DEMO_ITEM_SKU },
      { field: 'category', value: 'Coffee' },
    ],
    required_item_singular: 'coffee',
    required_item_plural: 'coffees',
    reward_title: 'free coffee',
    reward_article: 'a',
  });
  const visit = await createCampaign({
    merchant_id: merchantId,
    kind: 'visit',
    title: 'Regulars',
    description: 'Visit 5 times, get $4!',
    required_visit_count: 5,
    qualifying_order_spend_amount: 500,
    earn_amount: 400,
  });
  const itemGiftCard = await createCampaign({
    merchant_id: merchantId,
    kind: 'item_gift_card',
    title: 'Bagel month',
    description: 'Buy 6 bagels in 30 days for a $3 gift card',
    required_item_count: 6,
    earn_amount: 300,
    progress_period_days: 30,
    item_rules: [{ field: 'name', value: 'Bagel' }],
    required_item_singular: 'bagel',
    required_item_plural: 'bagels',
    reward_title: '$3 gift card',
  });
  const spendGiftCard = await createCampaign({
    merchant_id: merchantId,
    kind: 'spend_gift_card',
    title: 'Monthly spender',
    description: 'Spend $100 in 30 days for a $10 gift card',
    required_spend_amount: 10000,
    earn_amount: 1000,
    progress_period_days: 30,
    reward_title: '$10 gift card',
  });
  const customProgress = await createCampaign({
    merchant_id: merchantId,
    kind: 'custom_progress',
    title: 'Star journey',
    description: 'Every dollar is a star',
    progress_type: 'spend',
    point_label_singular: 'star',
    point_label_plural: 'stars',
    goals: [
      { title: 'Bronze', description: '$25 spent', progress_required: 2500, earn_amount: 200 },
      { title: 'Gold', description: '$100 spent', progress_required: 10000, earn_amount: 1000 },
    ],
  });
  await createCampaign({
    merchant_id: merchantId,
    kind: 'value',
    title: '$5 welcome credit',
    description: 'Five dollars on us',
    value_amount: 500,
    cohort_code: DEMO_COHORT_CODE,
  });
  const locked = await createCampaign({
    merchant_id: merchantId,
    kind: 'value',
    title: 'VIP $10',
    description: 'For our favourite customers',
    value_amount: 1000,
    locked: true,
    cohort_code: 'VIP10',
  });
  const legacy = await createCampaign({
    merchant_id: merchantId,
    kind: 'legacy',
    title: 'Punch card migration',
    description: 'Bring your paper punch card over',
    app_id: context.app.id,
    progress_campaign_id: spend.campaign_id,
    cohort_code: 'LEGACY_LOYALTY',
  });
  await importLegacyCards(legacy.campaign_id, [
    { legacy_id: DEMO_LEGACY_ID, value_amount: 500, progress_amount: 1500 },
    { legacy_id: 'PUNCH-1002', value_amount: 250 },
  ]);
  context.progress('loyalty campaigns', { merchant_id: merchantId });
  return {
    campaigns: {
      spend: spend.campaign_id,
      item: item.campaign_id,
      visit: visit.campaign_id,
      item_gift_card: itemGiftCard.campaign_id,
      spend_gift_card: spendGiftCard.campaign_id,
      custom_progress: customProgress.campaign_id,
    },
    item_campaign_sku: DEMO_ITEM_SKU,
    cohort_code: DEMO_COHORT_CODE,
    legacy: { campaign_id: legacy.campaign_id, legacy_id: DEMO_LEGACY_ID },
    locked_campaign_id: locked.campaign_id,
  };
}

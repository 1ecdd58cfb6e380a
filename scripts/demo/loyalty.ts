/**
 * Demo loyalty data for the demo merchant: one campaign of each progress kind, a $5 welcome code, a
 * locked VIP campaign, and a legacy campaign with one unclaimed card (see docs/loyalty.md).
 * The merchant's owner creates every campaign through the management API (POST .../campaigns), as any merchant
 * does; only the legacy campaign and its cards are the operators' (the API refuses that kind), made as
 * `npm run admin -- create-campaign` and `import-legacy-cards` make them.
 */
import { createCampaign, legacyCampaignIdForApp } from '#shared/domain/loyalty/campaigns.ts';
import { importLegacyCards } from '#shared/domain/loyalty/claims.ts';
import type { DemoContext } from './context.ts';
import { createCampaignAs } from './management.ts';

export const DEMO_ITEM_SKU = 'COFFEE-12';
export const DEMO_COHORT_CODE = 'WELCOME5';
export const DEMO_LEGACY_ID = 'PUNCH-1001';

export async function seedLoyalty(context: DemoContext): Promise<Record<string, unknown>> {
  const merchantId = context.merchant.id;
  const { owner } = context;
  const spend = await createCampaignAs(owner, 'spend', {
    kind: 'spend',
    title: 'Spend $50, get $5',
    description: 'Spend $50 and get $5 of credit',
    required_spend_amount: 5000,
    earn_amount: 500,
    reward_title: '$5 credit',
  });
  const item = await createCampaignAs(owner, 'item', {
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
  const visit = await createCampaignAs(owner, 'visit', {
    kind: 'visit',
    title: 'Regulars',
    description: 'Visit 5 times, get $4!',
    required_visit_count: 5,
    qualifying_order_spend_amount: 500,
    earn_amount: 400,
  });
  const itemGiftCard = await createCampaignAs(owner, 'item_gift_card', {
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
  const spendGiftCard = await createCampaignAs(owner, 'spend_gift_card', {
    kind: 'spend_gift_card',
    title: 'Monthly spender',
    description: 'Spend $100 in 30 days for a $10 gift card',
    required_spend_amount: 10000,
    earn_amount: 1000,
    progress_period_days: 30,
    reward_title: '$10 gift card',
  });
  const customProgress = await createCampaignAs(owner, 'custom_progress', {
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
  await createCampaignAs(owner, 'welcome', {
    kind: 'value',
    title: '$5 welcome credit',
    description: 'Five dollars on us',
    value_amount: 500,
    cohort_code: DEMO_COHORT_CODE,
  });
  const locked = await createCampaignAs(owner, 'vip', {
    kind: 'value',
    title: 'VIP $10',
    description: 'For our favourite customers',
    value_amount: 1000,
    locked: true,
    cohort_code: 'VIP10',
  });
  // The app's one legacy campaign, unless a start cut short made it already (importing cards again leaves them alone).
  const legacyId =
    (await legacyCampaignIdForApp(context.app.id)) ??
    (
      await createCampaign({
        merchant_id: merchantId,
        kind: 'legacy',
        title: 'Punch card migration',
        description: 'Bring your paper punch card over',
        app_id: context.app.id,
        progress_campaign_id: spend,
        cohort_code: 'LEGACY_LOYALTY',
      })
    ).campaign_id;
  await importLegacyCards(legacyId, [
    { legacy_id: DEMO_LEGACY_ID, value_amount: 500, progress_amount: 1500 },
    { legacy_id: 'PUNCH-1002', value_amount: 250 },
  ]);
  context.progress('loyalty campaigns', { merchant_id: merchantId });
  return {
    campaigns: { spend, item, visit, item_gift_card: itemGiftCard, spend_gift_card: spendGiftCard, custom_progress: customProgress },
    item_campaign_sku: DEMO_ITEM_SKU,
    cohort_code: DEMO_COHORT_CODE,
    legacy: { campaign_id: legacyId, legacy_id: DEMO_LEGACY_ID },
    locked_campaign_id: locked,
  };
}

import { randomUUID } from 'node:crypto';
import { createCampaign, type CampaignInput, type CampaignKind } from '#shared/domain/loyalty/campaigns.ts';
import { importLegacyCards } from '#shared/domain/loyalty/claims.ts';
import type { RepresentationType } from '#shared/domain/loyalty/representations.ts';
import { orderWorld } from './money.ts';

/** The loyalty representation each loyalty campaign kind (not value or legacy) is served in: the contract's table, written out, not read from the code under test. */
export const LOYALTY_REPRESENTATION_OF_KIND: Readonly<Record<string, RepresentationType>> = {
  spend: 'spend_based_loyalty_v1',
  item: 'item_based_loyalty_v1',
  visit: 'visit_based_loyalty_v1',
  item_gift_card: 'item_based_gift_card_loyalty_v1',
  spend_gift_card: 'spend_based_gift_card_loyalty_v1',
  custom_progress: 'custom_progress_based_v1',
};

/** A unique cohort code for one test (codes are global). */
export function uniqueCode(prefix = 'CODE'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`.toUpperCase();
}

const DEFAULTS: Record<CampaignKind, Partial<CampaignInput>> = {
  spend: { title: 'Spend $50, get $5', description: 'Spend $50 and earn $5 of credit', required_spend_amount: 5000, earn_amount: 500 },
  item: {
    title: 'Buy 5 coffees',
    description: 'Your sixth coffee is on us',
    required_item_count: 5,
    earn_amount: 300,
    item_rules: [
      { field: 'sku', value: 'COFFEE-12' },
      { field: 'category', value: 'Coffee' },
    ],
    required_item_singular: 'coffee',
    required_item_plural: 'coffees',
    reward_title: 'free coffee',
    reward_article: 'a',
  },
  visit: { title: 'Visit 3 times', description: 'Visit 3 times, get $4!', required_visit_count: 3, qualifying_order_spend_amount: 500, earn_amount: 400 },
  item_gift_card: {
    title: 'Bagel club',
    description: 'Buy 4 bagels a month for a $2 gift card',
    required_item_count: 4,
    earn_amount: 200,
    progress_period_days: 30,
    item_rules: [{ field: 'name', value: 'Bagel' }],
    required_item_singular: 'bagel',
    required_item_plural: 'bagels',
    reward_title: '$2 gift card',
  },
  spend_gift_card: {
    title: 'Monthly spender',
    description: 'Spend $100 a month for a $10 gift card',
    required_spend_amount: 10000,
    earn_amount: 1000,
    progress_period_days: 30,
    reward_title: '$10 gift card',
  },
  custom_progress: {
    title: 'Points journey',
    description: 'Earn points toward goals',
    progress_type: 'spend',
    point_label_singular: 'point',
    point_label_plural: 'points',
    goals: [
      { title: 'Bronze', description: '$20 spent', progress_required: 2000, earn_amount: 100 },
      { title: 'Silver', description: '$50 spent', progress_required: 5000, earn_amount: 0 },
    ],
  },
  value: { title: '$5 welcome credit', description: 'Five dollars on us', value_amount: 500 },
  legacy: { title: 'Legacy card migration', description: 'Bring your punch card over' },
};

export async function campaignFixture(merchantId: number, kind: CampaignKind, overrides: Partial<CampaignInput> = {}) {
  return createCampaign({ merchant_id: merchantId, kind, ...DEFAULTS[kind], ...overrides } as CampaignInput);
}

/** An order world whose merchant runs one fixture campaign of each kind given, created in that order. */
export async function loyaltyWorld<Kind extends CampaignKind>(kinds: readonly Kind[], options: Parameters<typeof orderWorld>[0] = {}) {
  const world = await orderWorld(options);
  const merchantId = world.merchant.merchant.merchant_id;
  const campaigns = {} as Record<Kind, Awaited<ReturnType<typeof campaignFixture>>>;
  for (const kind of kinds) campaigns[kind] = await campaignFixture(merchantId, kind);
  return { world, merchantId, campaigns };
}

export async function legacyFixture(
  merchantId: number,
  appId: number,
  progressCampaignId: number | null,
  cards: { legacy_id: string; value_amount: number; progress_amount?: number; email?: string | null }[],
) {
  const campaign = await campaignFixture(merchantId, 'legacy', { app_id: appId, progress_campaign_id: progressCampaignId, cohort_code: uniqueCode('LEGACY') });
  await importLegacyCards(campaign.campaign_id, cards);
  return campaign;
}

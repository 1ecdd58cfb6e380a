/** What the loyalty operations answer: campaigns, claims, rewards, a merchant's loyalty (the requests: shared/schemas/loyalty.ts). */
import * as z from '#shared/schemas/zod.ts';
import { cents, integerId, timestamp } from './common.ts';
import { named, resource } from './registry.ts';

const nullableTimestamp = z.nullable(timestamp);

const basicV1 = named('CampaignBasicV1', z.object({ description: z.string(), title: z.string() }));

const customProgressBasedV1 = named(
  'CampaignCustomProgressBasedV1',
  z.object({
    closes_at: nullableTimestamp,
    currency: z.string(),
    current_progress: z.number().check(z.int()),
    description: z.string(),
    id: integerId,
    image: z.null(),
    opens_at: timestamp,
    opted_in: z.nullable(z.boolean()),
    point_label_singular: z.nullable(z.string()),
    point_label_plural: z.nullable(z.string()),
    progress_type: z.nullable(z.enum(['item', 'spend'])),
    qualifying_order_spend_amount: z.nullable(cents),
    required_item_plural: z.string(),
    required_item_singular: z.string(),
    requires_opt_in: z.boolean(),
    title: z.string(),
    goals: z.array(
      z.object({
        goal: z.object({
          accomplished: z.boolean(),
          description: z.string(),
          id: integerId,
          image: z.null(),
          progress_required: z.number().check(z.int()),
          title: z.string(),
        }),
      }),
    ),
  }),
);

const itemBasedLoyaltyV1 = named(
  'CampaignItemBasedLoyaltyV1',
  z.object({
    progress_item_count: z.number().check(z.int()),
    required_item_count: z.nullable(z.number().check(z.int())),
    required_item_plural: z.string(),
    required_item_singular: z.string(),
    reward_article: z.string(),
    reward_title: z.string(),
  }),
);

const spendBasedLoyaltyV1 = named(
  'CampaignSpendBasedLoyaltyV1',
  z.object({ earn_amount: cents, progress_amount: cents, required_spend_amount: z.nullable(cents) }),
);

const visitBasedLoyaltyV1 = named(
  'CampaignVisitBasedLoyaltyV1',
  z.object({
    progress_visit_count: z.number().check(z.int()),
    required_visit_count: z.nullable(z.number().check(z.int())),
    earn_amount: cents,
    qualifying_order_spend_amount: cents,
  }),
);

const itemBasedGiftCardLoyaltyV1 = named(
  'CampaignItemBasedGiftCardLoyaltyV1',
  z.object({
    description: z.nullable(z.string()),
    title: z.nullable(z.string()),
    progress_item_count: z.number().check(z.int()),
    progress_period_starts_at: nullableTimestamp,
    progress_period_resets_at: nullableTimestamp,
    required_item_plural: z.string(),
    required_item_singular: z.string(),
    required_item_count: z.nullable(z.number().check(z.int())),
    reward_article: z.nullable(z.string()),
    reward_title: z.string(),
  }),
);

const spendBasedGiftCardLoyaltyV1 = named(
  'CampaignSpendBasedGiftCardLoyaltyV1',
  z.object({
    currency: z.string(),
    description: z.nullable(z.string()),
    title: z.nullable(z.string()),
    progress_amount: cents,
    progress_period_starts_at: nullableTimestamp,
    progress_period_resets_at: nullableTimestamp,
    earn_amount: cents,
    required_spend_amount: z.nullable(cents),
    reward_article: z.nullable(z.string()),
    reward_title: z.string(),
  }),
);

export const campaignResponse = named(
  'CampaignRepresentation',
  z.object({
    campaign: z.union([
      basicV1,
      customProgressBasedV1,
      itemBasedLoyaltyV1,
      spendBasedLoyaltyV1,
      visitBasedLoyaltyV1,
      itemBasedGiftCardLoyaltyV1,
      spendBasedGiftCardLoyaltyV1,
    ]),
  }),
  'The campaign in the requested representation_type (one shape per type).',
);

export const claimResponse = resource('Claim', 'claim', {
  id: integerId,
  campaign_id: integerId,
  code: z.string().check(z.describe('Cohort code')),
  value_amount: cents.check(z.describe('Original value of the claim')),
  value_remaining_amount: cents,
  progress_adjustments: z.optional(z.array(z.object({ adjustment_amount: z.number().check(z.int()) }))).check(z.describe('Only on a legacy claim')),
});

export const reward = named(
  'Reward',
  z.object({
    id: z.string().check(z.describe('Reward id: `claim-<n>`, `earned-<n>` or `campaign-<n>`')),
    title: z.string(),
    description: z.string(),
    earned: z.boolean(),
    created_at: timestamp,
    expires_at: nullableTimestamp,
    pausable: z.boolean(),
    paused: z.boolean().check(z.describe('Paused rewards are not redeemed automatically')),
    source_campaign_id: z.nullable(integerId),
    tags: z.array(z.string()),
    transfer_required: z.boolean(),
    transferable: z.boolean(),
    usable: z.boolean(),
    usable_now: z.boolean(),
    usable_as_credit: z.boolean(),
    value_amount: cents,
    value_remaining_amount: z.nullable(cents),
  }),
);
export const rewardResponse = named('RewardResponse', z.object({ reward }));
export const rewardList = z.array(z.object({ reward }));

/** GET /v15|v14/merchants/:merchant_id/loyalty (the SDKs' loyalty record; money in cents). */
export const merchantLoyaltyResponse = resource('MerchantLoyalty', 'loyalty', {
  merchant_earn_amount: cents.check(z.describe("Credit earned each time the merchant's spend goal is reached")),
  merchant_id: integerId,
  merchant_loyalty_enabled: z.boolean(),
  merchant_spend_amount: cents.check(z.describe('The spend goal')),
  orders_count: z.number().check(z.int()),
  potential_credit_amount: cents.check(z.describe("The user's merchant-funded credit at the merchant, paused rewards included")),
  progress_percentage: z.number().check(z.describe('Progress toward the spend goal, 0-100, one decimal')),
  savings_amount: cents.check(z.describe('Credit applied to the user’s orders at the merchant, net of refunds')),
  spend_remaining_amount: cents,
  total_volume_amount: cents.check(z.describe('Spend plus tips of the user’s orders at the merchant, net of refunds')),
  user_id: integerId,
});

export const rewardSummaryResponse = resource('RewardSummary', 'reward_summary', {
  credit_amount: cents,
  reward_count: z.number().check(z.int()),
  usable_as_credit_reward_count: z.number().check(z.int()),
});

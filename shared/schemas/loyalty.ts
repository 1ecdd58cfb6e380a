import * as z from 'zod';
import { cents, integerId, timestamp } from './common.ts';
import { named, schema } from './registry.ts';

const nullableTimestamp = /* @__PURE__ */ schema(() => timestamp.nullable());

const basicV1 = /* @__PURE__ */ schema(() => named('CampaignBasicV1', z.object({ description: z.string(), title: z.string() })));

const customProgressBasedV1 = /* @__PURE__ */ schema(() => named(
  'CampaignCustomProgressBasedV1',
  z.object({
    closes_at: nullableTimestamp,
    currency: z.string(),
    current_progress: z.number().int(),
    description: z.string(),
    id: integerId,
    image: z.null(),
    opens_at: timestamp,
    opted_in: z.boolean().nullable(),
    point_label_singular: z.string().nullable(),
    point_label_plural: z.string().nullable(),
    progress_type: z.enum(['item', 'spend']).nullable(),
    qualifying_order_spend_amount: cents.nullable(),
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
          progress_required: z.number().int(),
          title: z.string(),
        }),
      }),
    ),
  }),
));

const itemBasedLoyaltyV1 = /* @__PURE__ */ schema(() => named(
  'CampaignItemBasedLoyaltyV1',
  z.object({
    progress_item_count: z.number().int(),
    required_item_count: z.number().int().nullable(),
    required_item_plural: z.string(),
    required_item_singular: z.string(),
    reward_article: z.string(),
    reward_title: z.string(),
  }),
));

const spendBasedLoyaltyV1 = /* @__PURE__ */ schema(() => named(
  'CampaignSpendBasedLoyaltyV1',
  z.object({ earn_amount: cents, progress_amount: cents, required_spend_amount: cents.nullable() }),
));

const visitBasedLoyaltyV1 = /* @__PURE__ */ schema(() => named(
  'CampaignVisitBasedLoyaltyV1',
  z.object({
    progress_visit_count: z.number().int(),
    required_visit_count: z.number().int().nullable(),
    earn_amount: cents,
    qualifying_order_spend_amount: cents,
  }),
));

const itemBasedGiftCardLoyaltyV1 = /* @__PURE__ */ schema(() => named(
  'CampaignItemBasedGiftCardLoyaltyV1',
  z.object({
    description: z.string().nullable(),
    title: z.string().nullable(),
    progress_item_count: z.number().int(),
    progress_period_starts_at: nullableTimestamp,
    progress_period_resets_at: nullableTimestamp,
    required_item_plural: z.string(),
    required_item_singular: z.string(),
    required_item_count: z.number().int().nullable(),
    reward_article: z.string().nullable(),
    reward_title: z.string(),
  }),
));

const spendBasedGiftCardLoyaltyV1 = /* @__PURE__ */ schema(() => named(
  'CampaignSpendBasedGiftCardLoyaltyV1',
  z.object({
    currency: z.string(),
    description: z.string().nullable(),
    title: z.string().nullable(),
    progress_amount: cents,
    progress_period_starts_at: nullableTimestamp,
    progress_period_resets_at: nullableTimestamp,
    earn_amount: cents,
    required_spend_amount: cents.nullable(),
    reward_article: z.string().nullable(),
    reward_title: z.string(),
  }),
));

export const campaignResponse = /* @__PURE__ */ schema(() => named(
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
));

export const claimResponse = /* @__PURE__ */ schema(() => named(
  'Claim',
  z.object({
    claim: z.object({
      id: integerId,
      campaign_id: integerId,
      code: z.string().describe('Cohort code'),
      value_amount: cents.describe('Original value of the claim'),
      value_remaining_amount: cents,
      progress_adjustments: z.array(z.object({ adjustment_amount: z.number().int() })).optional().describe('Only on a legacy claim'),
    }),
  }),
));

export const reward = /* @__PURE__ */ schema(() => named(
  'Reward',
  z.object({
    id: z.string().describe('Reward id: `claim-<n>`, `earned-<n>` or `campaign-<n>`'),
    title: z.string(),
    description: z.string(),
    earned: z.boolean(),
    created_at: timestamp,
    expires_at: nullableTimestamp,
    pausable: z.boolean(),
    paused: z.boolean().describe('Paused rewards are not redeemed automatically'),
    source_campaign_id: integerId.nullable(),
    tags: z.array(z.string()),
    transfer_required: z.boolean(),
    transferable: z.boolean(),
    usable: z.boolean(),
    usable_now: z.boolean(),
    usable_as_credit: z.boolean(),
    value_amount: cents,
    value_remaining_amount: cents.nullable(),
  }),
));
export const rewardResponse = /* @__PURE__ */ schema(() => named('RewardResponse', z.object({ reward })));
export const rewardList = /* @__PURE__ */ schema(() => z.array(z.object({ reward })));

/** GET /v15|v14/merchants/:merchant_id/loyalty (the SDKs' loyalty record; money in cents). */
export const merchantLoyaltyResponse = /* @__PURE__ */ schema(() => named(
  'MerchantLoyalty',
  z.object({
    loyalty: z.object({
      merchant_earn_amount: cents.describe("Credit earned each time the merchant's spend goal is reached"),
      merchant_id: integerId,
      merchant_loyalty_enabled: z.boolean(),
      merchant_spend_amount: cents.describe('The spend goal'),
      orders_count: z.number().int(),
      potential_credit_amount: cents.describe("The user's merchant-funded credit at the merchant, paused rewards included"),
      progress_percentage: z.number().describe('Progress toward the spend goal, 0-100, one decimal'),
      savings_amount: cents.describe('Credit applied to the user’s orders at the merchant, net of refunds'),
      spend_remaining_amount: cents,
      total_volume_amount: cents.describe('Spend plus tips of the user’s orders at the merchant, net of refunds'),
      user_id: integerId,
    }),
  }),
));

export const rewardSummaryResponse = /* @__PURE__ */ schema(() => named(
  'RewardSummary',
  z.object({
    reward_summary: z.object({
      credit_amount: cents,
      reward_count: z.number().int(),
      usable_as_credit_reward_count: z.number().int(),
    }),
  }),
));

/** PUT /v15/merchants/:merchant_id/rewards/:claim_id (and the location path): pause or unpause. */
export const rewardPauseBody = /* @__PURE__ */ schema(() => z.object({ reward: z.object({ paused: z.boolean() }) }));

import { keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { Reward, type RewardAttributes } from '#shared/domain/loyalty/user-state.ts';
import { isoSeconds } from '#shared/time.ts';

/** Reward ids are public strings with a source prefix, as clients expect (`claim-123`). */
export const REWARD_ID_PATTERN = /^(claim|earned)-(\d+)$/;

export function newRewardItem(input: {
  rewardId: string;
  source: RewardAttributes['source'];
  userId: number;
  campaign: CampaignItem;
  valueAmount: number;
  title: string;
  claimId?: number;
  code?: string | null;
  orderUuid?: string;
  progressAdjustments?: { adjustment_amount: number }[];
  now?: string;
}): RewardAttributes {
  const now = input.now ?? isoSeconds();
  return {
    reward_id: input.rewardId,
    source: input.source,
    user_id: input.userId,
    merchant_id: input.campaign.merchant_id,
    campaign_id: input.campaign.campaign_id,
    claim_id: input.claimId ?? null,
    code: input.code ?? null,
    order_uuid: input.orderUuid ?? null,
    title: input.title,
    description: input.campaign.description,
    tags: input.campaign.tags,
    value_amount: input.valueAmount,
    value_remaining_amount: input.valueAmount,
    paused: false,
    transferable: input.campaign.transferable,
    transfer_required: input.campaign.transfer_required,
    usable_hours: input.campaign.usable_hours,
    progress_adjustments: input.progressAdjustments ?? [],
    voided: false,
    gift_card: isGiftCardCampaign(input.campaign),
    expires_at: null,
    created_at: now,
    updated_at: now,
  };
}

export function putRewardItem(reward: RewardAttributes): TransactItem {
  return Reward.at(reward.user_id, reward.merchant_id, reward.reward_id).putNew({ ...keys.rewardIdIndex(reward.reward_id), ...reward });
}

/** Rewards of gift card loyalty, or of a campaign its merchant tagged `gift_card`, are gift cards. */
export function isGiftCardCampaign(campaign: Pick<CampaignItem, 'kind' | 'tags'>): boolean {
  return campaign.kind === 'item_gift_card' || campaign.kind === 'spend_gift_card' || campaign.tags.includes(GIFT_CARD_TAG);
}

export const GIFT_CARD_TAG = 'gift_card';
/** A campaign tagged `preload` holds pre-loaded credit: it is spent like any credit but can never be paused. */
export const PRELOAD_TAG = 'preload';

export function isGiftCardReward(reward: Pick<RewardAttributes, 'gift_card' | 'tags'>): boolean {
  return reward.gift_card ?? reward.tags.includes(GIFT_CARD_TAG);
}

export function isPreloadedCredit(reward: Pick<RewardAttributes, 'tags'>): boolean {
  return reward.tags.includes(PRELOAD_TAG);
}

/** A transfer-only reward cannot be spent by its holder, so its value never enters the credit balance. */
export function countsAsCredit(reward: Pick<RewardAttributes, 'transfer_required'>): boolean {
  return !reward.transfer_required;
}

import { keys } from '#shared/db/keys.ts';
import { putNew, type TransactItem } from '#shared/db/transactions.ts';
import type { CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import type { RewardItem } from '#shared/domain/loyalty/user-state.ts';
import { isoSeconds } from '#shared/time.ts';

/** Reward ids are public strings with a source prefix, as clients expect (`claim-123`). */
export const REWARD_ID_PATTERN = /^(claim|earned)-(\d+)$/;

export function newRewardItem(input: {
  rewardId: string;
  source: RewardItem['source'];
  userId: number;
  campaign: CampaignItem;
  valueAmount: number;
  title: string;
  claimId?: number;
  code?: string | null;
  orderUuid?: string;
  progressAdjustments?: { adjustment_amount: number }[];
  now?: string;
}): RewardItem {
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
    expires_at: null,
    created_at: now,
    updated_at: now,
  };
}

export function putRewardItem(reward: RewardItem): TransactItem {
  return putNew({ ...keys.userReward(reward.user_id, reward.merchant_id, reward.reward_id), ...keys.rewardIdIndex(reward.reward_id), entity: 'Reward', ...reward });
}

/** A transfer-only reward cannot be spent by its holder, so its value never enters the credit balance. */
export function countsAsCredit(reward: Pick<RewardItem, 'transfer_required'>): boolean {
  return !reward.transfer_required;
}

import { table } from '#shared/db/client.ts';
import { versionIs } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import { queryAll, readItems } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import type { CampaignItem, UsableHours } from '#shared/domain/loyalty/campaigns.ts';
import type { App } from '#shared/domain/identity/apps.ts';

/** A user's progress toward one campaign. `version` guards every write (read-modify-write). */
interface ProgressAttributes {
  user_id: number;
  merchant_id: number;
  campaign_id: number;
  progress: number;
  /** Gift card loyalty: the current progress period (null before the first qualifying order). */
  period_starts_at: string | null;
  period_resets_at: string | null;
  /** Custom progress: goals whose reward was already earned. */
  goals_rewarded: number[];
  version: number;
  created_at: string;
  updated_at: string;
}

interface UnlockAttributes {
  user_id: number;
  merchant_id: number;
  campaign_id: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Marks that the user claimed (and so opted in to) a campaign; its key makes claims once-only. */
interface ClaimedAttributes {
  user_id: number;
  merchant_id: number;
  campaign_id: number;
  claim_id: number;
  created_at: string;
}

/**
 * Something of value the user holds at a merchant. `claim-<id>` rewards come from claims,
 * `earned-<id>` rewards from progress. Its unpaused, non-transfer-only remaining value is part of the
 * user's merchant-funded credit balance (the money area's account), and is consumed as that credit is applied.
 */
export interface RewardAttributes {
  reward_id: string;
  source: 'claim' | 'earned';
  user_id: number;
  merchant_id: number;
  campaign_id: number;
  claim_id: number | null;
  code: string | null;
  order_uuid: string | null;
  title: string;
  description: string;
  tags: string[];
  value_amount: number;
  value_remaining_amount: number;
  paused: boolean;
  transferable: boolean;
  transfer_required: boolean;
  usable_hours: UsableHours | null;
  /** Progress adjustments a legacy claim carried over (shown on the claim only). */
  progress_adjustments: { adjustment_amount: number }[];
  /** A refund took an unused earned reward back. */
  voided: boolean;
  /**
   * A gift card (from gift card loyalty, or a campaign tagged `gift_card`): pausing one pauses all the user's
   * gift cards at the merchant. Absent on rewards stored before it existed (their tags decide).
   */
  gift_card?: boolean;
  /** Times paused: each pause's ledger entry id is unique. */
  pause_count?: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A user's running totals at one merchant, kept by the completion and refund transactions (order-effects.ts)
 * beside the ledger entries they write: orders, volume (spend + tip) and savings (credit applied).
 */
interface LoyaltyStatsAttributes {
  user_id: number;
  merchant_id: number;
  orders_count: number;
  total_volume_amount: number;
  savings_amount: number;
  created_at: string;
  updated_at: string;
}

// What a user holds in one merchant's loyalty: one partition (`keys.userLoyaltyPrefix`), one entity per kind.
export const LoyaltyProgress = defineEntity<ProgressAttributes>()({ entity: 'LoyaltyProgress', key: keys.userProgress });
export const CampaignUnlock = defineEntity<UnlockAttributes>()({ entity: 'CampaignUnlock', key: keys.userUnlock });
export const CampaignClaimed = defineEntity<ClaimedAttributes>()({ entity: 'CampaignClaimed', key: keys.userCampaignClaimed });
/** A held reward, also found by its public id (gsi1, `keys.rewardIdIndex`). */
export const Reward = defineEntity<RewardAttributes & { gsi1pk: string; gsi1sk: string }>()({ entity: 'Reward', key: keys.userReward });
export const LoyaltyStats = defineEntity<LoyaltyStatsAttributes>()({ entity: 'LoyaltyStats', key: keys.userLoyaltyStats });

export type ProgressItem = EntityItem<typeof LoyaltyProgress>;
export type UnlockItem = EntityItem<typeof CampaignUnlock>;
export type ClaimedItem = EntityItem<typeof CampaignClaimed>;
export type RewardItem = EntityItem<typeof Reward>;
export type LoyaltyStatsItem = EntityItem<typeof LoyaltyStats>;

export interface UserLoyaltyState {
  progress: Map<number, ProgressItem>;
  unlocks: Map<number, UnlockItem>;
  claimed: Map<number, ClaimedItem>;
  rewards: RewardItem[];
  /** Absent until the user's first order at the merchant. */
  stats?: LoyaltyStatsItem;
}

/** Files a campaign's item under its campaign. */
function put<Item extends { campaign_id: number }>(byCampaign: Map<number, Item>, item: Item | undefined): void {
  if (item) byCampaign.set(item.campaign_id, item);
}

/** Everything a user holds in one merchant's loyalty: one Query on the user's partition. */
export async function loadUserLoyalty(userId: number, merchantId: number, consistent = false): Promise<UserLoyaltyState> {
  const state: UserLoyaltyState = { progress: new Map(), unlocks: new Map(), claimed: new Map(), rewards: [] };
  const { pk, skPrefix } = keys.userLoyaltyPrefix(userId, merchantId);
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: consistent,
  });
  for (const item of items) {
    switch (item.entity) {
      case LoyaltyProgress.entity:
        put(state.progress, LoyaltyProgress.from(item));
        break;
      case CampaignUnlock.entity:
        put(state.unlocks, CampaignUnlock.from(item));
        break;
      case CampaignClaimed.entity:
        put(state.claimed, CampaignClaimed.from(item));
        break;
      case Reward.entity: {
        const reward = Reward.from(item);
        if (reward) state.rewards.push(reward);
        break;
      }
      case LoyaltyStats.entity:
        state.stats = LoyaltyStats.from(item);
        break;
    }
  }
  return state;
}

export function isUnlockedFor(unlock: UnlockItem | undefined, at: Date): boolean {
  return unlock !== undefined && (unlock.expires_at === null || at.getTime() < Date.parse(unlock.expires_at));
}

/** A locked campaign exists for a user only while the merchant's unlocking lasts. */
export function campaignVisibleTo(campaign: Pick<CampaignItem, 'locked'>, unlock: UnlockItem | undefined, at: Date): boolean {
  return !campaign.locked || isUnlockedFor(unlock, at);
}

export async function getUnlock(userId: number, campaign: CampaignItem): Promise<UnlockItem | undefined> {
  return CampaignUnlock.at(userId, campaign.merchant_id, campaign.campaign_id).get({ consistent: false });
}

export async function getProgress(userId: number, campaign: CampaignItem): Promise<ProgressItem | undefined> {
  return LoyaltyProgress.at(userId, campaign.merchant_id, campaign.campaign_id).get({ consistent: false });
}

export interface CampaignViewerState {
  app: App | undefined;
  unlock: UnlockItem | undefined;
  progress: ProgressItem | undefined;
  claimed: ClaimedItem | undefined;
}

/**
 * What showing one campaign to a user needs besides the campaign, in one BatchGetItem: the token's app
 * and the user's unlock / progress / claimed marker for it (only those asked for). Their keys carry the
 * campaign's merchant, so this read follows the campaign's (docs/data-model.md, "Per-request reads").
 */
export async function loadCampaignViewerState(
  viewer: { userId: number; appId: number },
  campaign: CampaignItem,
  wanted: { unlock: boolean; progress: boolean; claimed: boolean },
): Promise<CampaignViewerState> {
  const { userId } = viewer;
  const { merchant_id: merchantId, campaign_id: campaignId } = campaign;
  const appKey = keys.app(viewer.appId);
  const unlockKey = wanted.unlock ? keys.userUnlock(userId, merchantId, campaignId) : undefined;
  const progressKey = wanted.progress ? keys.userProgress(userId, merchantId, campaignId) : undefined;
  const claimedKey = wanted.claimed ? keys.userCampaignClaimed(userId, merchantId, campaignId) : undefined;
  const requested = [appKey, unlockKey, progressKey, claimedKey].filter((key): key is Key => key !== undefined);
  const items = await readItems(requested, { consistent: false });
  const item = (key: Key | undefined) => (key ? items[requested.indexOf(key)] : undefined);
  return {
    app: item(appKey) as App | undefined,
    unlock: CampaignUnlock.from(item(unlockKey)),
    progress: LoyaltyProgress.from(item(progressKey)),
    claimed: CampaignClaimed.from(item(claimedKey)),
  };
}

/** Progress as of `at`: a gift card loyalty period that has ended counts as reset (the next order starts a new one). */
export function currentProgress(progress: ProgressItem | undefined, at: Date): { amount: number; startsAt: string | null; resetsAt: string | null } {
  if (!progress) return { amount: 0, startsAt: null, resetsAt: null };
  if (progress.period_resets_at !== null && Date.parse(progress.period_resets_at) <= at.getTime()) {
    return { amount: 0, startsAt: null, resetsAt: null };
  }
  return { amount: progress.progress, startsAt: progress.period_starts_at, resetsAt: progress.period_resets_at };
}

/**
 * The guarded write of a user's progress in a campaign (read-modify-write): a concurrent change of the
 * same progress cancels the transaction it is in, and the caller retries with fresh reads.
 */
export function putProgressItem(
  userId: number,
  campaign: Pick<CampaignItem, 'campaign_id' | 'merchant_id'>,
  existing: ProgressItem | undefined,
  next: Pick<ProgressItem, 'progress' | 'period_starts_at' | 'period_resets_at' | 'goals_rewarded'>,
  now: string,
): TransactItem {
  const progress = LoyaltyProgress.at(userId, campaign.merchant_id, campaign.campaign_id);
  const attributes = {
    user_id: userId,
    merchant_id: campaign.merchant_id,
    campaign_id: campaign.campaign_id,
    ...next,
    version: (existing?.version ?? 0) + 1,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  return existing ? progress.put(attributes, versionIs(existing.version)) : progress.putNew(attributes);
}

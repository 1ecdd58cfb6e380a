import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { and, equals } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { itemsOf, type KeyedItems } from '#shared/db/reads.ts';
import { transactWrite } from '#shared/db/transactions.ts';
import { notFound, unprocessable } from '#shared/errors.ts';
import { balanceChangeItems, creditAccountKey } from '#shared/domain/money/ledger.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { distanceInMeters, getLocation, listMerchantLocations } from '#shared/domain/merchants/locations.ts';
import { isOpen, isProgressCampaign, loadMerchantCatalogOffers, type CampaignOffer, type UsableHours } from '#shared/domain/loyalty/campaigns.ts';
import {
  campaignVisibleTo,
  loadUserLoyalty,
  Reward,
  type RewardAttributes,
  type RewardItem,
  type UserLoyaltyState,
} from '#shared/domain/loyalty/user-state.ts';
import { countsAsCredit, isGiftCardReward, isPreloadedCredit, REWARD_ID_PATTERN } from '#shared/domain/loyalty/rewards-store.ts';
import type { reward, rewardSummaryResponse } from '#shared/schemas/responses/loyalty.ts';
import type * as z from '#shared/schemas/zod.ts';
import { isoSeconds, localTime, parseClock } from '#shared/time.ts';

/** Where a paused reward's value waits: out of the credit balance that discounts draw on. */
export function pausedCreditAccountKey(userId: number, merchantId: number): string {
  return `pausedcredit:${userId}:${merchantId}`;
}

export interface RewardsQuery {
  lat?: number;
  lng?: number;
  transferSupported: boolean;
  /** The time zone usable_now is judged in (a location's); without it, the merchant location nearest lat/lng. */
  timeZone?: string;
}

/** A reward as the rewards lists answer it: the shape of its answer schema. */
export interface RewardView {
  reward: z.output<typeof reward>;
}

/**
 * The rewards a user has at a merchant (or, with no user, what a new user would see). Held rewards
 * (`claim-<id>`, `earned-<id>`) come first, oldest first; then `campaign-<id>` offers: open campaigns
 * visible to the user that can still give them something (a loyalty reward to work toward, or a
 * promotion not yet claimed). Reads are Queries by key only, in parallel: the merchant's catalog
 * (the merchant and its campaigns' offer fields, one gsi1 partition) and the user's loyalty prefix. The merchant's
 * locations are read only when a time zone matters: a held reward that could be usable now has usable_hours.
 */
export async function listRewards(merchantId: number, userId: number | undefined, query: RewardsQuery, at = new Date()): Promise<RewardView[]> {
  const [catalog, state] = await Promise.all([
    loadMerchantCatalogOffers(merchantId),
    userId === undefined
      ? Promise.resolve<UserLoyaltyState>({ progress: new Map(), unlocks: new Map(), claimed: new Map(), rewards: [] })
      : loadUserLoyalty(userId, merchantId),
  ]);
  // A merchant created before its item carried the catalog entry is not listed there: ask its own key.
  if (!catalog.merchantListed && !(await getMerchant(merchantId))) throw notFound();
  const views: RewardView[] = [];
  const held = state.rewards
    .filter((reward) => !reward.voided && reward.value_amount > 0)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.reward_id.localeCompare(b.reward_id));
  const timeZone = held.some((reward) => reward.usable_hours !== null && isUsable(reward) && !reward.paused)
    ? (query.timeZone ?? (await rewardTimeZone(merchantId, query)))
    : 'UTC';
  for (const reward of held) views.push(heldRewardView(reward, timeZone, at));
  for (const campaign of catalog.campaigns.sort((a, b) => a.campaign_id - b.campaign_id)) {
    const offer = campaignOfferView(campaign, state, at);
    if (offer) views.push(offer);
  }
  return views.filter((view) => query.transferSupported || !view.reward.transfer_required);
}

/**
 * The first read of the rewards at a location, keyed by the path alone (the token is not needed for it):
 * functions/location-rewards-list.ts and location-reward-summary-show.ts declare it as the route's prefetch
 * (sent beside the token's read, keyed by the path as it came, shared/http/handler.ts); merchantOfLocation
 * takes its item only for the validated path's location, and makes the check on it.
 */
export async function readRewardsLocation(locationId: number): Promise<KeyedItems> {
  const location = await getLocation(locationId);
  // Spread: a location's interface is a plain record of its attributes.
  return { keys: [keys.location(locationId)], items: [location && { ...location }] };
}

/**
 * The location's merchant, and its time zone for usable_now. Unknown location: 404 (empty body).
 * `prefetched` is readRewardsLocation of the path as it came, started before the token was admitted; the
 * location is read here when it failed or named another one.
 */
async function merchantOfLocation(locationId: number, prefetched?: Promise<KeyedItems>): Promise<{ merchantId: number; timeZone: string }> {
  const [location] = await itemsOf([keys.location(locationId)], prefetched, () => readRewardsLocation(locationId));
  if (!location) throw notFound();
  return { merchantId: Number(location.merchant_id), timeZone: String(location.time_zone) };
}

/**
 * GET /v15/locations/:location_id/rewards: the rewards of the location's merchant, usable_now in the location's time zone.
 * `prefetched`: the route's readRewardsLocation of `locationId` (merchantOfLocation).
 */
export async function listLocationRewards(
  locationId: number,
  userId: number | undefined,
  query: Omit<RewardsQuery, 'timeZone'>,
  prefetched?: Promise<KeyedItems>,
): Promise<RewardView[]> {
  const { merchantId, timeZone } = await merchantOfLocation(locationId, prefetched);
  return listRewards(merchantId, userId, { ...query, timeZone });
}

export type RewardSummaryView = z.output<typeof rewardSummaryResponse>;

/**
 * GET /v15/locations/:location_id/reward_summary, from the same list: `reward_count` counts the rewards the user
 * holds with value left (paused and transfer-only ones included); `usable_as_credit_reward_count` those whose
 * value is in the credit balance a discount draws on (neither paused nor transfer-only); `credit_amount` their
 * remaining value. Offers the user does not hold yet are not rewards held, so without a token all three are 0.
 */
export async function locationRewardSummary(
  locationId: number,
  userId: number | undefined,
  transferSupported: boolean,
  prefetched?: Promise<KeyedItems>,
): Promise<RewardSummaryView> {
  const held = (await listLocationRewards(locationId, userId, { transferSupported }, prefetched)).filter(
    ({ reward }) => !reward.id.startsWith('campaign-') && (reward.value_remaining_amount ?? 0) > 0,
  );
  const credit = held.filter(({ reward }) => !reward.paused && !reward.transfer_required);
  return {
    reward_summary: {
      credit_amount: credit.reduce((sum, { reward }) => sum + (reward.value_remaining_amount ?? 0), 0),
      reward_count: held.length,
      usable_as_credit_reward_count: credit.length,
    },
  };
}

function isUsable(reward: RewardAttributes): boolean {
  return reward.value_remaining_amount > 0 && !reward.transfer_required;
}

/** `timeZone` matters only for a usable, unpaused reward with usable_hours (otherwise any value will do). */
export function heldRewardView(reward: RewardAttributes, timeZone: string, at: Date): RewardView {
  const usable = isUsable(reward);
  return {
    reward: {
      id: reward.reward_id,
      title: reward.title,
      description: reward.description,
      earned: reward.source === 'earned',
      created_at: reward.created_at,
      expires_at: reward.expires_at,
      pausable: isPausable(reward) || reward.paused,
      paused: reward.paused,
      source_campaign_id: reward.campaign_id,
      tags: reward.tags,
      transfer_required: reward.transfer_required,
      transferable: reward.transferable,
      usable,
      usable_now: usable && !reward.paused && withinUsableHours(reward.usable_hours, timeZone, at),
      usable_as_credit: true,
      value_amount: reward.value_amount,
      value_remaining_amount: reward.value_remaining_amount,
    },
  };
}

function campaignOfferView(campaign: CampaignOffer, state: UserLoyaltyState, at: Date): RewardView | undefined {
  if (!isOpen(campaign, at) || !campaignVisibleTo(campaign, state.unlocks.get(campaign.campaign_id), at)) return undefined;
  let value: number;
  let title: string;
  if (campaign.kind === 'value') {
    const exhausted = campaign.max_claims !== null && campaign.claims_count >= campaign.max_claims;
    if (campaign.value_amount <= 0 || exhausted || state.claimed.has(campaign.campaign_id)) return undefined;
    value = campaign.value_amount;
    title = campaign.title;
  } else if (isProgressCampaign(campaign) && campaign.kind !== 'custom_progress' && campaign.earn_amount > 0) {
    value = campaign.earn_amount;
    title = campaign.reward_title;
  } else {
    return undefined;
  }
  return {
    reward: {
      id: `campaign-${campaign.campaign_id}`,
      title,
      description: campaign.description,
      earned: false,
      created_at: campaign.created_at,
      expires_at: campaign.closes_at,
      pausable: false,
      paused: false,
      source_campaign_id: campaign.campaign_id,
      tags: campaign.tags,
      transfer_required: campaign.transfer_required,
      transferable: campaign.transferable,
      usable: false,
      usable_now: false,
      usable_as_credit: true,
      value_amount: value,
      value_remaining_amount: null,
    },
  };
}

/** The time zone of the location nearest lat/lng (else the merchant's first location; else UTC). */
async function rewardTimeZone(merchantId: number, query: RewardsQuery): Promise<string> {
  const locations = await listMerchantLocations(merchantId);
  if (locations.length === 0) return 'UTC';
  if (query.lat === undefined || query.lng === undefined) return locations[0]!.time_zone;
  const point = { lat: query.lat, lng: query.lng };
  const distance = (location: (typeof locations)[number]) => distanceInMeters(point, { lat: location.latitude, lng: location.longitude });
  let nearest = locations[0]!;
  for (const location of locations) {
    if (distance(location) < distance(nearest)) nearest = location;
  }
  return nearest.time_zone;
}

/** Inside [start, end) local time; a window whose end is before its start runs past midnight (equal ends: never). */
export function withinUsableHours(hours: UsableHours | null, timeZone: string, at: Date): boolean {
  if (!hours) return true;
  const now = localTime(at, timeZone).minutes;
  const [start, end] = [parseClock(hours.start), parseClock(hours.end)];
  return start <= end ? now >= start && now < end : now >= start || now < end;
}

function isPausable(reward: RewardAttributes): boolean {
  return !reward.voided && reward.value_remaining_amount > 0 && countsAsCredit(reward) && !isPreloadedCredit(reward);
}

/** Rewards one pause may move together (a gift card pauses all the user's gift cards): 3 items each, under the 100-item transaction. */
export const MAX_REWARDS_PAUSED_TOGETHER = 30;

const NOT_PAUSABLE = () => unprocessable('reward', 'base', 'This reward cannot be paused: it has no value left to use', 'not_pausable');
const PRELOAD_NOT_PAUSABLE = () => unprocessable('reward', 'base', 'Pre-loaded credit cannot be paused', 'not_pausable');

/**
 * Pauses (or unpauses) a reward the user holds. Pausing moves the reward's remaining value from the
 * user's merchant-funded credit account to a paused-credit account, with a ledger entry on each, in
 * the same transaction as the reward's flag, so discounts (which draw on the credit account) never
 * apply a paused reward. Repeating the current state changes nothing. A gift card moves with all the
 * user's other gift cards at the merchant (one transaction); pre-loaded credit is never paused.
 * `merchantId` (the merchant or location paths) scopes the reward: one held elsewhere is not found.
 */
export async function setRewardPaused(userId: number, rewardId: string, paused: boolean, merchantId?: number): Promise<RewardView> {
  if (!REWARD_ID_PATTERN.test(rewardId)) throw notFound();
  for (let attempt = 0; attempt < 3; attempt++) {
    const reward = merchantId === undefined ? await findUserReward(userId, rewardId) : await getUserReward(userId, merchantId, rewardId);
    if (!reward) throw notFound();
    if (paused && isPreloadedCredit(reward)) throw PRELOAD_NOT_PAUSABLE();
    if (reward.paused === paused) return heldRewardView(reward, 'UTC', new Date());
    if (paused && !isPausable(reward)) throw NOT_PAUSABLE();
    const group = isGiftCardReward(reward) ? await giftCardsToMove(reward, paused) : [reward];
    const now = isoSeconds();
    const outcome = await transactWrite(() => pauseItems(userId, reward.merchant_id, group, paused, now));
    if (outcome.committed) {
      return heldRewardView({ ...reward, paused, updated_at: now }, 'UTC', new Date());
    }
    // A failed balance guard means the credit was already spent elsewhere (the reward is being used).
    const rewardsFailed = outcome.reasons.slice(0, group.length).includes('ConditionalCheckFailed');
    if (outcome.reasons.slice(group.length).includes('ConditionalCheckFailed') && !rewardsFailed) {
      throw unprocessable('reward', 'base', 'This reward is being used right now; try again in a moment', 'in_use');
    }
  }
  throw unprocessable('reward', 'base', 'This reward changed while it was being paused; try again', 'conflict');
}

/** The location path of the pause: the location names the merchant (unknown location: 404). */
export async function setLocationRewardPaused(userId: number, locationId: number, rewardId: string, paused: boolean): Promise<RewardView> {
  if (!REWARD_ID_PATTERN.test(rewardId)) throw notFound();
  const { merchantId } = await merchantOfLocation(locationId);
  return setRewardPaused(userId, rewardId, paused, merchantId);
}

/** The user's gift cards at the reward's merchant that are not yet in the asked state (the reward first). */
async function giftCardsToMove(reward: RewardItem, paused: boolean): Promise<RewardItem[]> {
  const state = await loadUserLoyalty(reward.user_id, reward.merchant_id, true);
  const others = state.rewards.filter(
    (other) => other.reward_id !== reward.reward_id && isGiftCardReward(other) && other.paused !== paused && (!paused || isPausable(other)),
  );
  const group = [reward, ...others.sort((a, b) => a.created_at.localeCompare(b.created_at))];
  if (group.length > MAX_REWARDS_PAUSED_TOGETHER) {
    throw unprocessable('reward', 'base', `At most ${MAX_REWARDS_PAUSED_TOGETHER} gift cards can be paused or unpaused together`, 'too_many');
  }
  return group;
}

/** Each reward's flag (guarded by its state and value) and its value moved between the two accounts. */
function pauseItems(userId: number, merchantId: number, group: RewardItem[], paused: boolean, now: string) {
  const kind = paused ? 'credit_paused' : 'credit_unpaused';
  const movements = group.map((reward) => {
    const pauseCount = reward.pause_count ?? 0;
    return {
      reward,
      entryId: `reward:${reward.reward_id}:${paused ? 'pause' : 'unpause'}:${pauseCount + (paused ? 1 : 0)}`,
      amount: reward.value_remaining_amount,
    };
  });
  return [
    ...group.map((reward) =>
      Reward.at(userId, merchantId, reward.reward_id).update(
        { set: { paused, updated_at: now }, ...(paused ? { add: { pause_count: 1 } } : {}) },
        and(equals('paused', !paused), equals('value_remaining_amount', reward.value_remaining_amount)),
      ),
    ),
    ...balanceChangeItems(
      creditAccountKey(userId, merchantId),
      movements.map(({ reward, entryId, amount }) => ({ kind, amount: paused ? -amount : amount, entryId, reference: { reward_id: reward.reward_id } })),
      { now },
    ),
    ...balanceChangeItems(
      pausedCreditAccountKey(userId, merchantId),
      movements.map(({ reward, entryId, amount }) => ({ kind, amount: paused ? amount : -amount, entryId, reference: { reward_id: reward.reward_id } })),
      { now },
    ),
  ];
}

async function getUserReward(userId: number, merchantId: number, rewardId: string): Promise<RewardItem | undefined> {
  return Reward.at(userId, merchantId, rewardId).get({ consistent: true });
}

async function findUserReward(userId: number, rewardId: string): Promise<RewardItem | undefined> {
  const { gsi1pk, gsi1sk } = keys.rewardIdIndex(rewardId);
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
    }),
  );
  const indexed = Reward.from(result.Items?.[0]);
  // Someone else's reward is "not found": a user sees only their own data.
  if (!indexed || indexed.user_id !== userId) return undefined;
  // The index is eventually consistent; the reward's own item is the truth the write is guarded on.
  return getUserReward(userId, indexed.merchant_id, rewardId);
}

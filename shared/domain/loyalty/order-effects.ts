/**
 * Loyalty's part in the money transactions of order completion and refund (orders/settlement.ts and
 * orders/refunds.ts call it directly).
 *
 * Completion and refund each commit ONE DynamoDB TransactWriteItems: the order, the balances, the
 * ledger entries and the source's state transition. Loyalty progress and earned credit must be in that
 * same transaction, or a crash could leave an order without its progress (or progress without an
 * order). So loyalty does not write on its own here: it reads what it needs (campaigns, progress) and
 * returns transact items, and the order's transaction carries them. Rules kept here:
 * - Each returned item is guarded by a condition (a version on the progress item, the reward's value), so
 *   a concurrent change cancels the whole transaction instead of being overwritten. The settlement retries
 *   a cancelled transaction, calling `completionEffects` again with fresh reads.
 * - At most MAX_ORDER_EFFECT_ITEMS items: the whole transaction may hold 100 and money uses about 15;
 *   the settlement rejects more (a 500, a programming error).
 * - Credit earned on an order is merchant-funded credit at the order's merchant, reported as
 *   `creditEarnedAmount`: the settlement credits `creditAccountKey(userId, merchantId)` with a
 *   `credit_earned` ledger entry and records it on the order. Loyalty never writes that balance inside an
 *   order (the applied discount already debits it, and DynamoDB rejects two writes to one item per
 *   transaction). Outside orders (e.g. a claim), `creditEarnedTransactItems()` from ledger.ts.
 * - Every order adds to the user's totals at the merchant (`statsUpdate`) and platform-wide (`userTotalsUpdate`,
 *   user-totals.ts: the User resource's orders_count, merchants_visited_count, total_savings_amount): plain ADDs,
 *   once per order because they commit with the record's `attribute_not_exists` Put; the refund takes both back
 *   with the record's `reversed = false` guard.
 * - `refundEffects` reverses what `completionEffects` did (progress, the rewards it earned, used or not);
 *   the earned credit itself is reversed by the refund from the order's `credit_earned_amount`, less what
 *   loyalty reports as `creditReversedAmount` (taken back from paused rewards).
 */
import { and, equals } from '#shared/db/conditions.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys, type Key } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import type { StoredItem } from '#shared/db/reads.ts';
import type { TransactItem } from '#shared/db/transactions.ts';
import { balanceChangeItems, type Movement } from '#shared/domain/money/ledger.ts';
import { getCampaign, isOpen, isProgressCampaign, listMerchantCampaigns, progressRequired, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { accrue, qualifyingSpend } from '#shared/domain/loyalty/progress.ts';
import type { OrderItem } from '#shared/schemas/money.ts';
import { campaignVisibleTo, LoyaltyStats, loadUserLoyalty, putProgressItem, Reward, type RewardItem, type UserLoyaltyState } from '#shared/domain/loyalty/user-state.ts';
import { countsAsCredit, newRewardItem, putRewardItem } from '#shared/domain/loyalty/rewards-store.ts';
import { pausedCreditAccountKey } from '#shared/domain/loyalty/rewards.ts';
import { rewardEarnedItems, userAppServing } from '#shared/domain/loyalty/loyalty-events.ts';
import { userTotalsUpdate } from '#shared/domain/identity/user-totals.ts';

/** How many items loyalty may add to one completion or refund transaction. */
export const MAX_ORDER_EFFECT_ITEMS = 60;

/**
 * What loyalty reads of the order being recorded: fields of the stored order (orders/record.ts), by
 * their stored names, so the settlement hands over the record itself.
 */
export interface CompletedOrder {
  uuid: string;
  merchant_id: number;
  user_id: number;
  /** Approved spend, excluding tip. */
  spend_amount: number;
  /**
   * The check's whole spend as the POS stated it (excluding tip), whatever tender paid for it: what
   * progress accrues on (contract rules 4 and 5; docs/money.md, "Loyalty on the whole check").
   */
  requested_spend_amount: number;
  /** Approved tip. */
  tip_amount: number;
  exemption_amount: number;
  applied_discount_amount: number;
  items: OrderItem[];
  transacted_at: string;
}

/** ...and of the order being refunded. */
export interface RefundedOrder {
  uuid: string;
  credit_earned_amount: number;
}

export interface CompletionEffects {
  /** Guarded writes committed in the same transaction as the order. */
  transactItems: TransactItem[];
  /** Merchant-funded credit earned at the order's merchant (the settlement credits it). */
  creditEarnedAmount: number;
}

export interface RefundEffects {
  transactItems: TransactItem[];
  /** Earned credit loyalty took back itself (from paused rewards), which the refund must not reverse again. */
  creditReversedAmount: number;
}

/**
 * Most merchant-funded credit one order can earn, whatever its campaigns (docs/money.md, "Order math"):
 * the ceiling of one gift card load. Rewards past it are earned with their value cut to what is left.
 */
export const MAX_ORDER_CREDIT_EARNED = 50_000;

/** Items of one event (its counter and itself; shared/db/outbox.ts). */
const EVENT_ITEMS = 2;

/** Rewards one order's applied discount may draw on (keeps the transaction well under its budget). */
const MAX_REWARDS_CONSUMED = 15;

/** What loyalty did in one completion; the refund undoes exactly this. */
interface OrderLoyaltyEffects {
  order_uuid: string;
  user_id: number;
  merchant_id: number;
  accruals: {
    campaign_id: number;
    delta: number;
    /** Repeat rewards earned (requirement multiples); custom goals are in goal_ids. */
    earned_count: number;
    /** Custom progress goals this order reached first. */
    goal_ids: number[];
    /** Rewards this order earned in the campaign (goal_id for a custom goal's reward). */
    rewards: { reward_id: string; goal_id: number | null }[];
    /** Gift card loyalty: the period the progress went into (a later period is not touched by the refund). */
    period_starts_at: string | null;
    /**
     * The campaign's progress per reward at completion (`progressRequired`), so the refund need not read
     * the campaign. Records written before it was kept lack it; the refund reads the campaign then.
     */
    progress_required?: number | null;
  }[];
  consumed: { reward_id: string; amount: number }[];
  /**
   * What the order added to the user's totals at the merchant (`keys.userLoyaltyStats`), taken back by the
   * refund. Records written before the totals existed lack it (and their orders were never counted).
   */
  stats?: { total_volume_amount: number; savings_amount: number };
  /**
   * The order was also added to the user's platform-wide totals (`keys.userTotals`, user-totals.ts): one order,
   * `stats.savings_amount`, one order at the merchant; the refund takes back exactly that. Records written
   * before those totals existed lack it (their orders were never counted there).
   */
  user_totals?: true;
  reversed: boolean;
  /** Set by the refund that undid it. */
  reversed_at?: string;
  created_at: string;
}

/** Loyalty's record of one order (`keys.orderLoyaltyEffects`): written by the completion, undone once by the refund. */
const LoyaltyEffects = defineEntity<OrderLoyaltyEffects>()({ entity: 'OrderLoyaltyEffects', key: keys.orderLoyaltyEffects });

/** The reward still holds `remaining` and is paused as `paused`: what a change of its value was worked out from. */
const rewardIs = (remaining: number, paused: boolean) => and(equals('value_remaining_amount', remaining), equals('paused', paused));

/** Adds (or with -1, takes back) one order's part of the user's totals at the merchant. */
function statsUpdate(userId: number, merchantId: number, stats: NonNullable<OrderLoyaltyEffects['stats']>, sign: 1 | -1, now: string): TransactItem {
  return LoyaltyStats.at(userId, merchantId).update({
    add: { orders_count: sign, total_volume_amount: sign * stats.total_volume_amount, savings_amount: sign * stats.savings_amount },
    set: { user_id: userId, merchant_id: merchantId, updated_at: now },
    setIfAbsent: { created_at: now },
    creates: true,
  });
}

/** Does this campaign accrue for this user at this moment? */
function accruesFor(campaign: CampaignItem, state: UserLoyaltyState, at: Date): boolean {
  if (!isProgressCampaign(campaign) || !isOpen(campaign, at)) return false;
  if (!campaignVisibleTo(campaign, state.unlocks.get(campaign.campaign_id), at)) return false;
  return !campaign.requires_opt_in || state.claimed.has(campaign.campaign_id);
}

/** Rewards the applied discount draws on: spendable ones, oldest first. */
function spendableRewards(state: UserLoyaltyState): RewardItem[] {
  return state.rewards
    .filter((reward) => !reward.voided && !reward.paused && countsAsCredit(reward) && reward.value_remaining_amount > 0)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.reward_id.localeCompare(b.reward_id));
}

/** Where loyalty records what it did in one order: the refund reads it with the order. */
export function loyaltyRecordKey(orderUuid: string): Key {
  return keys.orderLoyaltyEffects(orderUuid);
}

/** What `completionEffects` reads: the merchant's campaigns and the user's loyalty at the merchant (consistent). */
export interface CompletionReads {
  campaigns: CampaignItem[];
  state: UserLoyaltyState;
}

/**
 * `completionEffects`' two Queries, in parallel. The settlement sends them beside its claim and hands the answer
 * to `completionEffects` as `read` (the items it returns are guarded by what was read, as with its own reads).
 */
export async function readCompletionState(userId: number, merchantId: number): Promise<CompletionReads> {
  const [campaigns, state] = await Promise.all([listMerchantCampaigns(merchantId), loadUserLoyalty(userId, merchantId, true)]);
  return { campaigns, state };
}

/**
 * Progress, rewards earned and rewards consumed by one order's completion, as guarded writes. Each reward
 * earned is announced to `userAppId` (`reward.earned`, loyalty-events.ts) when that app serves the merchant;
 * the app is read only when a reward is earned, alongside its id. `read`: `readCompletionState`'s answer for the
 * order's user and merchant, when the caller read it already (else read here).
 */
export async function completionEffects(order: CompletedOrder, userAppId?: number, read?: CompletionReads): Promise<CompletionEffects> {
  const at = new Date(order.transacted_at);
  const now = order.transacted_at;
  const { campaigns, state } = read ?? (await readCompletionState(order.user_id, order.merchant_id));
  const items: TransactItem[] = [];
  const stats = { total_volume_amount: order.spend_amount + order.tip_amount, savings_amount: order.applied_discount_amount };
  const record: OrderLoyaltyEffects = { order_uuid: order.uuid, user_id: order.user_id, merchant_id: order.merchant_id, accruals: [], consumed: [], stats, user_totals: true, reversed: false, created_at: now };
  let creditEarnedAmount = 0;
  // Value of every reward this order earned (credit or not), held to MAX_ORDER_CREDIT_EARNED.
  let valueEarned = 0;
  // Progress accrues on the whole check (spend less exemption), also when part of it is paid by another tender
  // (loyalty only, discount only, partial authorization); the refund takes back exactly these accruals.
  const progressOf = { qualifyingSpendAmount: qualifyingSpend({ spend_amount: order.requested_spend_amount, exemption_amount: order.exemption_amount }), items: order.items };
  let eventsApp: Promise<number | undefined> | undefined;

  for (const campaign of campaigns.sort((a, b) => a.campaign_id - b.campaign_id)) {
    if (!accruesFor(campaign, state, at)) continue;
    const existing = state.progress.get(campaign.campaign_id);
    const accrual = accrue(campaign, existing, progressOf, at);
    if (!accrual) continue;
    // The progress item, and per reward (a custom campaign may reach several goals) the reward and its event's two items.
    const cost = 1 + accrual.earned.length * (1 + EVENT_ITEMS);
    // Room is kept for the consumed rewards and the three items every order writes (both totals, the record).
    if (items.length + cost > MAX_ORDER_EFFECT_ITEMS - MAX_REWARDS_CONSUMED - 3) break;
    items.push(putProgressItem(order.user_id, campaign, existing, accrual.next, now));
    const rewards: { reward_id: string; goal_id: number | null }[] = [];
    for (const earned of accrual.earned) {
      const valueAmount = Math.min(earned.amount, MAX_ORDER_CREDIT_EARNED - valueEarned);
      if (valueAmount <= 0) continue;
      valueEarned += valueAmount;
      eventsApp ??= userAppServing(userAppId, order.merchant_id);
      const [id, appId] = await Promise.all([nextId('earned_reward'), eventsApp]);
      const rewardId = `earned-${id}`;
      const reward = newRewardItem({ rewardId, source: 'earned', userId: order.user_id, campaign, valueAmount, title: earned.title, orderUuid: order.uuid, now });
      items.push(putRewardItem(reward));
      if (appId !== undefined) items.push(...(await rewardEarnedItems(reward, appId)));
      rewards.push({ reward_id: rewardId, goal_id: earned.goalId });
      if (countsAsCredit(reward)) creditEarnedAmount += valueAmount;
    }
    record.accruals.push({
      campaign_id: campaign.campaign_id,
      delta: accrual.delta,
      earned_count: accrual.earned.filter((earned) => earned.goalId === null).reduce((sum, earned) => sum + earned.count, 0),
      goal_ids: accrual.next.goals_rewarded.filter((goalId) => !(existing?.goals_rewarded ?? []).includes(goalId)),
      rewards,
      period_starts_at: accrual.next.period_starts_at,
      progress_required: progressRequired(campaign),
    });
  }

  // The applied discount was drawn from the credit balance; the rewards that make it up shrink to match.
  let toConsume = order.applied_discount_amount;
  for (const reward of spendableRewards(state).slice(0, MAX_REWARDS_CONSUMED)) {
    if (toConsume <= 0) break;
    const amount = Math.min(toConsume, reward.value_remaining_amount);
    toConsume -= amount;
    items.push(
      Reward.at(order.user_id, order.merchant_id, reward.reward_id).update(
        { set: { value_remaining_amount: reward.value_remaining_amount - amount, updated_at: now } },
        rewardIs(reward.value_remaining_amount, false),
      ),
    );
    record.consumed.push({ reward_id: reward.reward_id, amount });
  }

  // Every order counts in the user's totals at the merchant (merchant loyalty, merchant-loyalty.ts) and in the
  // user's platform-wide totals (the User resource), in this transaction, which the record's Put makes once-only.
  items.push(statsUpdate(order.user_id, order.merchant_id, stats, 1, now));
  items.push(userTotalsUpdate(order.user_id, order.merchant_id, stats.savings_amount, 1, now));
  items.push(LoyaltyEffects.at(order.uuid).putNew(record));
  return { transactItems: items, creditEarnedAmount };
}

/**
 * Undoes one order's loyalty: every reward it earned is voided, used or not (a paused one's unspent value
 * is taken from the paused-credit account here and reported as `creditReversedAmount`, so the refund takes
 * only the rest from the credit balance, which may go negative). Progress loses the
 * order's contribution and regains the requirement of each voided reward, never below zero. Credit
 * the order applied is restored to the rewards it came from. `read` carries loyalty's record of the
 * order when the refund read it with the order (its first try); without it, the record is read here.
 */
export async function refundEffects(order: RefundedOrder, refundedAt: string, read?: { record: StoredItem | undefined }): Promise<RefundEffects> {
  const record = read ? LoyaltyEffects.from(read.record) : await LoyaltyEffects.at(order.uuid).get({ consistent: true });
  if (!record || record.reversed) return { transactItems: [], creditReversedAmount: 0 };
  const now = refundedAt;
  // An order that only counted in the totals needs no read of the user's loyalty to be undone.
  const touchedLoyalty = record.accruals.length > 0 || record.consumed.length > 0;
  const state: UserLoyaltyState = touchedLoyalty ? await loadUserLoyalty(record.user_id, record.merchant_id, true) : { progress: new Map(), unlocks: new Map(), claimed: new Map(), rewards: [] };
  const rewardsById = new Map(state.rewards.map((reward) => [reward.reward_id, reward]));
  const items: TransactItem[] = [];
  // One balance change for every paused reward taken back: a transaction may touch the account only once.
  const pausedReversals: Movement[] = [];
  let creditReversedAmount = 0;

  for (const accrual of record.accruals) {
    // Records written before `progress_required` was kept: the campaign says it.
    const stored = accrual.progress_required === undefined ? await getCampaign(accrual.campaign_id) : undefined;
    const campaign = accrual.progress_required !== undefined ? { campaign_id: accrual.campaign_id, merchant_id: record.merchant_id } : stored;
    let voidedCount = 0;
    for (const { reward_id: rewardId, goal_id: goalId } of accrual.rewards) {
      const reward = rewardsById.get(rewardId);
      if (!reward || reward.voided) continue;
      // Every reward the order earned goes, used or not: the refund claws its whole value back from the
      // credit balance, which may go negative for what was already spent (docs/money.md, "Refunds").
      items.push(
        Reward.at(record.user_id, record.merchant_id, rewardId).update(
          { set: { voided: true, value_remaining_amount: 0, paused: false, updated_at: now } },
          rewardIs(reward.value_remaining_amount, reward.paused),
        ),
      );
      if (reward.paused && countsAsCredit(reward) && reward.value_remaining_amount > 0) {
        // A paused reward's unspent value sits in the paused-credit account: taken back from there.
        pausedReversals.push({ kind: 'credit_reversed', amount: -reward.value_remaining_amount, entryId: `order:${order.uuid}:reward:${rewardId}:reversed`, reference: { order_uuid: order.uuid, reward_id: rewardId } });
        creditReversedAmount += reward.value_remaining_amount;
      }
      if (goalId === null) voidedCount = accrual.earned_count;
    }
    const progress = state.progress.get(accrual.campaign_id);
    if (!campaign || !progress) continue;
    // Gift card loyalty: once the order's period has ended, its progress is gone anyway.
    if (accrual.period_starts_at !== null && progress.period_starts_at !== accrual.period_starts_at) continue;
    const required = (stored ? progressRequired(stored) : accrual.progress_required) ?? 0;
    const restored = Math.max(0, progress.progress + voidedCount * required - accrual.delta);
    items.push(
      putProgressItem(record.user_id, campaign, progress, {
        progress: restored,
        period_starts_at: progress.period_starts_at,
        period_resets_at: progress.period_resets_at,
        // Goals this order reached are open again (their rewards went with the refund).
        goals_rewarded: progress.goals_rewarded.filter((goalId) => !accrual.goal_ids.includes(goalId)),
      }, now),
    );
  }

  items.push(...balanceChangeItems(pausedCreditAccountKey(record.user_id, record.merchant_id), pausedReversals, { now }));

  // Credit the order applied comes back (the refund restores the balance); give it back to its rewards.
  for (const consumed of record.consumed) {
    const reward = rewardsById.get(consumed.reward_id);
    // A reward since voided (its own order was refunded and clawed it back): the credit restored here
    // repays that claw-back, so there is no reward to give it back to.
    if (!reward || reward.voided) continue;
    if (reward.paused) {
      // A paused reward's value sits outside the credit balance; the restored credit is spendable, so it becomes its own reward.
      const campaign = await getCampaign(reward.campaign_id);
      if (!campaign) continue;
      const rewardId = `earned-${await nextId('earned_reward')}`;
      items.push(putRewardItem(newRewardItem({ rewardId, source: reward.source, userId: record.user_id, campaign, valueAmount: consumed.amount, title: reward.title, orderUuid: order.uuid, now })));
      continue;
    }
    items.push(
      Reward.at(record.user_id, record.merchant_id, consumed.reward_id).update(
        { add: { value_remaining_amount: consumed.amount }, set: { updated_at: now } },
        and(equals('paused', false), equals('voided', false)),
      ),
    );
  }

  if (record.stats) items.push(statsUpdate(record.user_id, record.merchant_id, record.stats, -1, now));
  // Guarded, as the line above, by `reversed = false` on the record below: taken back once.
  if (record.stats && record.user_totals) items.push(userTotalsUpdate(record.user_id, record.merchant_id, record.stats.savings_amount, -1, now));
  items.push(LoyaltyEffects.at(order.uuid).update({ set: { reversed: true, reversed_at: now } }, equals('reversed', false)));
  return { transactItems: items, creditReversedAmount: Math.min(creditReversedAmount, order.credit_earned_amount) };
}

import type { OrderItem } from '#shared/schemas/money.ts';
import { hasProgressPeriod, progressRequired, type CampaignItem, type ItemRule } from '#shared/domain/loyalty/campaigns.ts';
import { currentProgress, type ProgressItem } from '#shared/domain/loyalty/user-state.ts';
import { isoSeconds } from '#shared/time.ts';

/** The part of an order's spend that earns progress: spend minus exemption, never negative. */
export function qualifyingSpend(order: { spend_amount: number; exemption_amount: number }): number {
  return Math.max(0, order.spend_amount - order.exemption_amount);
}

/** What an order brings to progress. */
export interface OrderForProgress {
  /** Spend minus exemptions (never negative). */
  qualifyingSpendAmount: number;
  items: OrderItem[];
}

function matchesRule(item: OrderItem, rule: ItemRule): boolean {
  const value = item[rule.field];
  return typeof value === 'string' && value.trim().toLowerCase() === rule.value.trim().toLowerCase();
}

/**
 * Qualifying units in an order: items (and modifiers) a rule matches, times their quantities. A line
 * counts at most one unit per cent it was charged: a line given away (or priced at a cent for a
 * thousand) cannot buy progress (docs/money.md, "Order math").
 */
export function qualifyingItemCount(items: readonly OrderItem[], rules: readonly ItemRule[], multiplier = 1): number {
  let count = 0;
  for (const item of items) {
    const quantity = (item.quantity ?? 1) * multiplier;
    if (rules.some((rule) => matchesRule(item, rule))) count += Math.min(quantity, item.charged_price_amount);
    if (item.children?.length) count += qualifyingItemCount(item.children, rules, quantity);
  }
  return count;
}

/**
 * Item progress an order reconciles to: none from a check with no qualifying spend, and never more units
 * than the check's qualifying spend in cents (each counted unit stands for at least a cent paid).
 */
function itemProgress(order: OrderForProgress, rules: readonly ItemRule[]): number {
  if (order.qualifyingSpendAmount <= 0) return 0;
  return Math.min(qualifyingItemCount(order.items, rules), order.qualifyingSpendAmount);
}

/** Progress one order adds to a campaign (0 when it does not qualify). */
export function progressDelta(campaign: CampaignItem, order: OrderForProgress): number {
  const meetsMinimum = campaign.qualifying_order_spend_amount === null || order.qualifyingSpendAmount >= campaign.qualifying_order_spend_amount;
  switch (campaign.kind) {
    case 'spend':
    case 'spend_gift_card':
      return order.qualifyingSpendAmount;
    case 'item':
    case 'item_gift_card':
      return itemProgress(order, campaign.item_rules);
    case 'visit':
      return order.qualifyingSpendAmount > 0 && meetsMinimum ? 1 : 0;
    case 'custom_progress':
      if (!meetsMinimum) return 0;
      return campaign.progress_type === 'spend' ? order.qualifyingSpendAmount : itemProgress(order, campaign.item_rules);
    default:
      return 0;
  }
}

/** Credit earned by one accrual: a repeat reward (count times earn_amount) or one custom goal's reward. */
export interface EarnedReward {
  amount: number;
  count: number;
  goalId: number | null;
  title: string;
}

export interface Accrual {
  campaignId: number;
  delta: number;
  next: { progress: number; period_starts_at: string | null; period_resets_at: string | null; goals_rewarded: number[] };
  earned: EarnedReward[];
}

/**
 * Applies one order's progress to a campaign. Reaching the requirement earns a reward and keeps the
 * remainder (several rewards when one order covers the requirement several times); gift card loyalty
 * starts a new period when the previous one has ended. Custom progress never resets: each goal earns
 * its own reward once.
 */
export function accrue(campaign: CampaignItem, existing: ProgressItem | undefined, order: OrderForProgress, at: Date): Accrual | undefined {
  return accrueDelta(campaign, existing, progressDelta(campaign, order), at);
}

/**
 * Applies `delta` units of progress (items, visits or cents, by the campaign's kind) by the same rules
 * as an order: what an order brings (`accrue`) and what a merchant adjusts (progress-adjustments.ts).
 */
export function accrueDelta(campaign: CampaignItem, existing: ProgressItem | undefined, delta: number, at: Date): Accrual | undefined {
  if (delta <= 0) return undefined;
  const current = currentProgress(existing, at);
  let periodStartsAt = current.startsAt;
  let periodResetsAt = current.resetsAt;
  if (hasProgressPeriod(campaign) && periodStartsAt === null) {
    periodStartsAt = isoSeconds(at);
    periodResetsAt = isoSeconds(new Date(at.getTime() + campaign.progress_period_days! * 86_400_000));
  }
  const total = current.amount + delta;
  const earned: EarnedReward[] = [];
  const goalsRewarded = [...(existing?.goals_rewarded ?? [])];
  let progress = total;

  if (campaign.kind === 'custom_progress') {
    for (const goal of campaign.goals) {
      if (total >= goal.progress_required && !goalsRewarded.includes(goal.id)) {
        goalsRewarded.push(goal.id);
        if (goal.earn_amount > 0) earned.push({ amount: goal.earn_amount, count: 1, goalId: goal.id, title: goal.title });
      }
    }
  } else {
    const required = progressRequired(campaign)!;
    const count = Math.floor(total / required);
    progress = total - count * required;
    if (count > 0 && campaign.earn_amount > 0) earned.push({ amount: count * campaign.earn_amount, count, goalId: null, title: campaign.reward_title });
    else if (count > 0) earned.push({ amount: 0, count, goalId: null, title: campaign.reward_title });
  }
  return {
    campaignId: campaign.campaign_id,
    delta,
    next: { progress, period_starts_at: periodStartsAt, period_resets_at: periodResetsAt, goals_rewarded: goalsRewarded },
    earned,
  };
}

/**
 * Progress adjustments (POST /v15/progress_adjustments): a merchant adds to (or takes from) a customer's
 * progress on one of its item-, visit- or spend-based campaigns — an order made as a guest, a mistake.
 * A positive adjustment goes through the same rules as an order's progress (`accrueDelta`, progress.ts):
 * reaching the requirement earns the reward (credit through the ledger), the remainder is kept, gift card
 * loyalty periods start as for orders. A negative one lowers progress, never below zero, and takes back no
 * reward already earned.
 *
 * Bounded (merchant-budget.ts; docs/money.md, "Caps and budgets"): the rewards one adjustment earns are worth at
 * most PER_OPERATION_CAP.progress_adjustment ($500, credit or not), and their credit counts against the
 * merchant's daily credit budget. Over either: 422, nothing written.
 *
 * One transaction: the progress item (guarded by its version), any earned rewards with their `reward.earned`
 * events, their credit (balance + `credit_earned` ledger entry), the budget's counter (guarded by the budget),
 * the adjustment record and the Idempotency-Key record. A concurrent change of the same progress, or of the
 * budget, cancels it and it is re-read and retried.
 */
import { keys } from '#shared/db/keys.ts';
import { newUuid, nextId } from '#shared/db/ids.ts';
import { LabelledItems, putNew, type TransactItem } from '#shared/db/transactions.ts';
import { backoff, CONTENTION_BACKOFF } from '#shared/db/transient.ts';
import { conflict, unauthorized, unprocessable } from '#shared/errors.ts';
import { creditEarnedTransactItems } from '#shared/domain/money/ledger.ts';
import { commitKeyedRound } from '#shared/domain/money/idempotency.ts';
import { budgetDay, countCreditItems, creditBudgetFrom, creditBudgetKeys, refuseOverBudget, refuseOverCap } from '#shared/domain/money/merchant-budget.ts';
import { readItems } from '#shared/db/reads.ts';
import { getCampaign, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { accrueDelta } from '#shared/domain/loyalty/progress.ts';
import { countsAsCredit, newRewardItem, putRewardItem } from '#shared/domain/loyalty/rewards-store.ts';
import { currentProgress, loadUserLoyalty, putProgressItem } from '#shared/domain/loyalty/user-state.ts';
import { recipientOf } from '#shared/domain/pos/recipients.ts';
import { rewardEarnedItems, userAppServing } from '#shared/domain/loyalty/loyalty-events.ts';
import { getUser } from '#shared/domain/identity/users.ts';
import type { ProgressAdjustmentRequest } from '#shared/schemas/pos-money.ts';
import { isoSeconds } from '#shared/time.ts';

/** Campaign kinds whose progress a merchant may adjust (the docs: item-, visit- and spend-based). */
const ADJUSTABLE: readonly CampaignItem['kind'][] = ['spend', 'item', 'visit', 'item_gift_card', 'spend_gift_card', 'custom_progress'];

const NOT_THE_MERCHANTS = () => unauthorized('Merchant token not associated with the campaign', 'progress_adjustment', 'campaign_id');
const CONTENDED = () => conflict("This customer's progress is being changed by another request; retry shortly.", 1, 'progress_adjustment', 'in_progress');
const ROUNDS = 6;
const BUDGET_REFUSAL = { object: 'progress_adjustment', property: 'adjustment' } as const;

/** A merchant adjusts: the user's app is the one the user registered through (loyalty-events.ts). */
async function userAppOf(userId: number, merchantId: number): Promise<number | undefined> {
  return userAppServing((await getUser(userId))?.created_app_id, merchantId);
}

export async function adjustProgress(input: {
  merchantId: number;
  adjustment: ProgressAdjustmentRequest;
  storeResponse?: () => TransactItem | undefined;
}): Promise<void> {
  const { merchantId, adjustment } = input;
  const campaign = await getCampaign(adjustment.campaign_id);
  // A campaign that is not this merchant's, or does not exist, is not the merchant's to adjust: same answer.
  if (!campaign || campaign.merchant_id !== merchantId) throw NOT_THE_MERCHANTS();
  if (!ADJUSTABLE.includes(campaign.kind)) {
    throw unprocessable('progress_adjustment', 'campaign_id', 'Only item-, visit- and spend-based progress campaigns can be adjusted.', 'not_adjustable');
  }
  if (adjustment.adjustment === 0) throw unprocessable('progress_adjustment', 'adjustment', 'Adjustment must not be zero.', 'zero');
  const userId = await recipientOf('progress_adjustment', adjustment);
  const uuid = newUuid();
  // Read once, and only when a reward is earned (alongside its id): where its reward.earned goes.
  let eventsApp: Promise<number | undefined> | undefined;

  for (let round = 1; round <= ROUNDS; round++) {
    const at = new Date();
    const now = isoSeconds(at);
    const day = budgetDay(now);
    // Only an adjustment that adds can earn: the budget is read for those alone, beside the user's loyalty.
    const [state, [merchant, budgetCounter]] = await Promise.all([
      loadUserLoyalty(userId, merchantId, true),
      adjustment.adjustment > 0 ? readItems(creditBudgetKeys(merchantId, day), { consistent: true }) : [undefined, undefined],
    ]);
    const budget = creditBudgetFrom(merchant, budgetCounter, merchantId, day);
    const existing = state.progress.get(campaign.campaign_id);
    const batch = new LabelledItems();
    let creditEarned = 0;
    if (adjustment.adjustment > 0) {
      const accrual = accrueDelta(campaign, existing, adjustment.adjustment, at)!;
      // Every reward's value is bounded (credit or not, as an order's), and the credit by the day's budget too.
      const valueEarned = accrual.earned.reduce((sum, earned) => sum + Math.max(0, earned.amount), 0);
      refuseOverCap('progress_adjustment', valueEarned, BUDGET_REFUSAL.object, BUDGET_REFUSAL.property);
      refuseOverBudget(budget, 'progress_adjustment', countsAsCredit(campaign) ? valueEarned : 0, BUDGET_REFUSAL.object, BUDGET_REFUSAL.property);
      batch.add('progress', putProgressItem(userId, campaign, existing, accrual.next, now));
      for (const earned of accrual.earned) {
        if (earned.amount <= 0) continue;
        eventsApp ??= userAppOf(userId, merchantId);
        const [id, appId] = await Promise.all([nextId('earned_reward'), eventsApp]);
        const reward = newRewardItem({ rewardId: `earned-${id}`, source: 'earned', userId, campaign, valueAmount: earned.amount, title: earned.title, now });
        batch.add('reward', putRewardItem(reward));
        if (appId !== undefined) batch.add('event', ...(await rewardEarnedItems(reward, appId)));
        if (countsAsCredit(reward)) creditEarned += earned.amount;
      }
    } else {
      const current = currentProgress(existing, at);
      const next = {
        progress: Math.max(0, current.amount + adjustment.adjustment),
        period_starts_at: current.startsAt,
        period_resets_at: current.resetsAt,
        goals_rewarded: existing?.goals_rewarded ?? [],
      };
      batch.add('progress', putProgressItem(userId, campaign, existing, next, now));
    }
    if (creditEarned > 0) {
      batch.add(
        'credit',
        ...creditEarnedTransactItems({
          userId,
          merchantId,
          amount: creditEarned,
          entryId: `progressadj:${uuid}:credit_earned`,
          reference: { progress_adjustment_uuid: uuid },
        }),
      );
      batch.add('budget', ...countCreditItems(budget, 'progress_adjustment', creditEarned, now, BUDGET_REFUSAL));
    }
    batch.add(
      'record',
      putNew({
        ...keys.progressAdjustment(uuid),
        entity: 'ProgressAdjustment',
        uuid,
        merchant_id: merchantId,
        user_id: userId,
        campaign_id: campaign.campaign_id,
        adjustment: adjustment.adjustment,
        audit_comment: adjustment.audit_comment,
        suppress_email: adjustment.suppress_email,
        credit_earned_amount: creditEarned,
        created_at: now,
      }),
    );
    if ((await commitKeyedRound(batch, 'record', input.storeResponse?.(), CONTENDED)).done) return;
    await backoff(round, CONTENTION_BACKOFF);
  }
  throw CONTENDED();
}

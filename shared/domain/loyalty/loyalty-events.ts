/**
 * Loyalty's events for the user's app (docs/events.md, "Loyalty events"): `reward.earned` and
 * `claim.created`, each recorded in the transaction that creates the reward or the claim.
 *
 * Which app is "the user's app": the app the user acted through when the user acted (a claim, an
 * order-ahead order), otherwise (an in-store order, a merchant's progress adjustment) the app the user
 * registered through (`created_app_id`). Either only when it serves the reward's merchant (global, or the
 * merchant is one of its own): an app not serving a merchant never learns what its users do there, as
 * it cannot list their orders or rewards there either.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { appAudience, claimResource, recordEvent, rewardResource } from '#shared/domain/events/catalogue.ts';
import type { ClaimView } from '#shared/domain/loyalty/claims.ts';
import { heldRewardView } from '#shared/domain/loyalty/rewards.ts';
import type { RewardItem } from '#shared/domain/loyalty/user-state.ts';

/** `appId` when that app serves the merchant, else undefined (no event). One GetItem. */
export async function userAppServing(appId: number | null | undefined, merchantId: number): Promise<number | undefined> {
  if (typeof appId !== 'number') return undefined;
  const app = await getApp(appId);
  return app && (app.global || app.merchant_ids.includes(merchantId)) ? appId : undefined;
}

/**
 * A held reward as the rewards list shows it to the app, with the merchant and order it came from;
 * without `usable_now`, the answer of one moment in one time zone, not a fact of the reward.
 */
export function rewardEventData(reward: RewardItem): Record<string, unknown> {
  const { usable_now: _moment, ...shown } = heldRewardView(reward, 'UTC', new Date()).reward;
  return { ...shown, merchant_id: reward.merchant_id, order_uuid: reward.order_uuid };
}

/** The items of `reward.earned` for a reward the transaction creates (its first event: no counter read). */
export function rewardEarnedItems(reward: RewardItem, appId: number): Promise<TransactItem[]> {
  return recordEvent('reward.earned', rewardResource(reward.reward_id), appAudience(appId), rewardEventData(reward), { newResource: true });
}

/** The items of `claim.created`: the claim as answered, and its merchant. A user claims a campaign once. */
export function claimCreatedItems(userId: number, merchantId: number, view: ClaimView, appId: number): Promise<TransactItem[]> {
  return recordEvent(
    'claim.created',
    claimResource(view.claim.campaign_id, userId),
    appAudience(appId),
    { ...view.claim, merchant_id: merchantId, user_id: userId },
    { newResource: true },
  );
}

/**
 * Loyalty's events for the user's app (docs/events.md, "Loyalty events"): `reward.earned`, recorded in the
 * transaction that creates the reward, and which app hears of it (`claim.created` is the claim's own, claims.ts).
 *
 * Which app is "the user's app": the app the user acted through when the user acted (a claim, an
 * order-ahead order), otherwise (an in-store order, a merchant's progress adjustment) the app the user
 * registered through (`created_app_id`). Either only when it serves the reward's merchant (global, or the
 * merchant is one of its own): an app not serving a merchant never learns what its users do there, as
 * it cannot list their orders or rewards there either.
 */
import type { TransactItem } from '#shared/db/transactions.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { appAudience, recordEvent, rewardResource } from '#shared/domain/events/catalogue.ts';
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

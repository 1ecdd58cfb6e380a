/**
 * A user's loyalty record at a merchant (GET /v15|v14/merchants/:merchant_id/loyalty), computed from what
 * every other part already keeps, never from a copy of its own:
 * - progress toward the merchant's spend loyalty from the same progress item order completion writes;
 * - `potential_credit_amount` from the ledger: the credit account (what discounts draw on) plus the
 *   paused-credit account (paused rewards the user can unpause);
 * - `orders_count`, `total_volume_amount` and `savings_amount` from the user's totals at the merchant,
 *   which the completion and refund transactions keep beside their ledger entries (order-effects.ts).
 *
 * Reads, in parallel after the token: the merchant's catalog (Query), the user's loyalty prefix (Query:
 * progress, rewards and totals), and one BatchGetItem of the two balances.
 */
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { notFound } from '#shared/errors.ts';
import { creditAccountKey } from '#shared/domain/money/ledger.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { isOpen, loadMerchantCatalog, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { campaignVisibleTo, currentProgress, loadUserLoyalty, type UserLoyaltyState } from '#shared/domain/loyalty/user-state.ts';
import { pausedCreditAccountKey } from '#shared/domain/loyalty/rewards.ts';
import type { merchantLoyaltyResponse } from '#shared/schemas/responses/loyalty.ts';
import type * as z from '#shared/schemas/zod.ts';

export type MerchantLoyaltyView = z.output<typeof merchantLoyaltyResponse>;

/**
 * The merchant's spend loyalty as the user sees it: its open `spend` campaign visible to the user (the
 * lowest id when there are several). Item, visit and gift card loyalty have their own representations
 * (GET /v15/campaigns/:id/:type); this record is the spend goal the SDKs draw as a progress ring.
 */
function spendLoyalty(campaigns: CampaignItem[], state: UserLoyaltyState, at: Date): CampaignItem | undefined {
  return campaigns
    .filter((campaign) => campaign.kind === 'spend' && isOpen(campaign, at) && campaignVisibleTo(campaign, state.unlocks.get(campaign.campaign_id), at))
    .sort((a, b) => a.campaign_id - b.campaign_id)[0];
}

/** Unknown merchant: 404 (empty body). A user with no history there gets a zero-valued record, not a 404. */
export async function merchantLoyalty(userId: number, merchantId: number, at = new Date()): Promise<MerchantLoyaltyView> {
  const [catalog, state, [credit, paused]] = await Promise.all([
    loadMerchantCatalog(merchantId),
    loadUserLoyalty(userId, merchantId),
    readItems([keys.balance(creditAccountKey(userId, merchantId)), keys.balance(pausedCreditAccountKey(userId, merchantId))], { consistent: false }),
  ]);
  // A merchant created before its item carried the catalog entry is not listed there: ask its own key.
  if (!catalog.merchantListed && !(await getMerchant(merchantId))) throw notFound();
  const campaign = spendLoyalty(catalog.campaigns, state, at);
  const required = campaign?.required_spend_amount ?? 0;
  const progress = campaign ? Math.min(currentProgress(state.progress.get(campaign.campaign_id), at).amount, required) : 0;
  return {
    loyalty: {
      merchant_earn_amount: campaign?.earn_amount ?? 0,
      merchant_id: merchantId,
      merchant_loyalty_enabled: campaign !== undefined && required > 0,
      merchant_spend_amount: required,
      orders_count: Math.max(0, state.stats?.orders_count ?? 0),
      // A refund's claw-back can leave the credit balance negative (a debt later earnings repay): never shown below 0.
      potential_credit_amount: Math.max(0, Number(credit?.balance ?? 0) + Number(paused?.balance ?? 0)),
      // One decimal, as the docs' `42.0`.
      progress_percentage: required > 0 ? Math.round((progress / required) * 1000) / 10 : 0,
      savings_amount: Math.max(0, state.stats?.savings_amount ?? 0),
      spend_remaining_amount: Math.max(0, required - progress),
      total_volume_amount: Math.max(0, state.stats?.total_volume_amount ?? 0),
      user_id: userId,
    },
  };
}

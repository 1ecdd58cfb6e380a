import { and, below, equals, itemExists } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { createItem, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { notFound, unprocessable } from '#shared/errors.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { creditEarnedTransactItems } from '#shared/domain/money/ledger.ts';
import { Campaign, campaignIdForCohortCode, getCampaign, isOpen, legacyCampaignIdForApp, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { CampaignClaimed, campaignVisibleTo, getProgress, getUnlock, putProgressItem } from '#shared/domain/loyalty/user-state.ts';
import { countsAsCredit, newRewardItem, putRewardItem } from '#shared/domain/loyalty/rewards-store.ts';
import { isoSeconds } from '#shared/time.ts';
import { appAudience, claimResource, recordEvent } from '#shared/domain/events/catalogue.ts';
import { consumeOrRefuse, LEGACY_CLAIM_FAILURES, release } from '#shared/domain/rate-limits.ts';
import { getUser } from '#shared/domain/identity/users.ts';
import type { claimResponse } from '#shared/schemas/responses/loyalty.ts';
import type * as z from '#shared/schemas/zod.ts';

export const NOT_A_VALID_CODE = () => notFound({ object: 'claim', property: 'base', message: 'Not a valid code' });
const CANNOT_CLAIM = () => unprocessable('claim', 'base', 'Sorry, you cannot claim this promotion at this time.');
export const LEGACY_NOT_FOUND = () => notFound({ object: 'claim', property: 'base', message: 'Loyalty information not found in records' });
const LEGACY_ALREADY_MIGRATED = () => unprocessable('claim', 'base', 'Value for this card or email has already been migrated');

export type ClaimView = z.output<typeof claimResponse>;

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

export interface Claimant {
  userId: number;
  appId: number;
}

/**
 * Claims a campaign by its cohort code. The claimed marker (attribute_not_exists), the campaign's
 * claim counter (below max_claims), the claim, its credit and its `claim.created` event are one transaction, so concurrent claims
 * of a once-per-user code yield exactly one claim and a limited campaign is never over-claimed.
 */
export async function claimByCohortCode(claimant: Claimant, code: string, at = new Date()): Promise<ClaimView> {
  const campaignId = await campaignIdForCohortCode(code);
  const campaign = campaignId === undefined ? undefined : await getCampaign(campaignId);
  if (!campaign || !(await appServesMerchant(claimant.appId, campaign.merchant_id))) throw NOT_A_VALID_CODE();
  if (campaign.kind === 'legacy' || !isOpen(campaign, at)) throw CANNOT_CLAIM();
  if (campaign.max_claims !== null && campaign.claims_count >= campaign.max_claims) throw CANNOT_CLAIM();
  if (campaign.locked && !campaignVisibleTo(campaign, await getUnlock(claimant.userId, campaign), at)) throw CANNOT_CLAIM();

  const claimId = await nextId('claim');
  const value = campaign.value_amount;
  const reward = newRewardItem({
    rewardId: `claim-${claimId}`,
    source: 'claim',
    userId: claimant.userId,
    campaign,
    valueAmount: value,
    title: campaign.title,
    claimId,
    code: campaign.cohort_code,
  });
  const view: ClaimView = {
    claim: {
      id: claimId,
      campaign_id: campaign.campaign_id,
      code: campaign.cohort_code ?? code.toUpperCase(),
      value_amount: value,
      value_remaining_amount: value,
    },
  };
  const outcome = await transactWrite(async () => [
    claimedMarkerItem(claimant.userId, campaign, claimId, reward.created_at),
    claimCounterItem(campaign),
    putRewardItem(reward),
    ...claimCreditItems(claimant.userId, campaign, claimId, value),
    // The claiming app serves the campaign's merchant (checked above): it hears of the claim.
    ...(await claimCreatedItems(claimant.userId, campaign.merchant_id, view, claimant.appId)),
  ]);
  if (!outcome.committed) throw CANNOT_CLAIM();
  return view;
}

/**
 * Migrates a legacy loyalty card into the legacy campaign of the request's app (the path's campaign id
 * does not select it). The card's value becomes a claim with credit; its progress moves to the
 * campaign the legacy campaign names, as a progress adjustment. A card migrates once, and a user
 * migrates one card ("this card or email").
 */
export async function claimLegacyCard(claimant: Claimant, legacyId: string): Promise<ClaimView> {
  // Every attempt is counted before the lookup (concurrent guesses cannot outrun the limit); a migration gives its hit back.
  await consumeOrRefuse(LEGACY_CLAIM_FAILURES, String(claimant.userId), {
    object: 'claim',
    message: 'Too many legacy card claims that found nothing; try again later.',
  });
  const view = await migrateLegacyCard(claimant, legacyId);
  await release(LEGACY_CLAIM_FAILURES, String(claimant.userId));
  return view;
}

async function migrateLegacyCard(claimant: Claimant, legacyId: string): Promise<ClaimView> {
  const campaignId = await legacyCampaignIdForApp(claimant.appId);
  const campaign = campaignId === undefined ? undefined : await getCampaign(campaignId);
  if (!campaign) throw LEGACY_NOT_FOUND();
  const card = await getLegacyCard(campaign.campaign_id, legacyId);
  if (!card) throw LEGACY_NOT_FOUND();
  // A card tied to an email is only the user's with that email; to anyone else it does not exist.
  if (card.email) {
    const user = await getUser(claimant.userId);
    if (user?.email.trim().toLowerCase() !== card.email) throw LEGACY_NOT_FOUND();
  }
  if (card.claimed_by_user_id !== null) throw LEGACY_ALREADY_MIGRATED();

  const target = campaign.progress_campaign_id !== null && card.progress_amount > 0 ? await getCampaign(campaign.progress_campaign_id) : undefined;
  const adjustments = target ? [{ adjustment_amount: card.progress_amount }] : [];
  const claimId = await nextId('claim');
  const now = isoSeconds();
  const code = campaign.cohort_code ?? 'LEGACY_LOYALTY';
  const reward = newRewardItem({
    rewardId: `claim-${claimId}`,
    source: 'claim',
    userId: claimant.userId,
    campaign,
    valueAmount: card.value_amount,
    title: campaign.title,
    claimId,
    code,
    progressAdjustments: adjustments,
    now,
  });
  const view: ClaimView = {
    claim: {
      id: claimId,
      campaign_id: campaign.campaign_id,
      code,
      value_amount: card.value_amount,
      value_remaining_amount: card.value_amount,
      progress_adjustments: adjustments,
    },
  };
  const outcome = await transactWrite(async () => [
    LegacyCard.at(campaign.campaign_id, legacyId).update(
      { set: { claimed_by_user_id: claimant.userId, claim_id: claimId, claimed_at: now, updated_at: now } },
      and(itemExists, equals('claimed_by_user_id', null)),
    ),
    claimedMarkerItem(claimant.userId, campaign, claimId, now),
    putRewardItem(reward),
    ...claimCreditItems(claimant.userId, campaign, claimId, card.value_amount),
    ...(target ? [await progressAdjustmentItem(claimant.userId, target, card.progress_amount, now)] : []),
    // The legacy campaign is the claiming app's own: it hears of the claim.
    ...(await claimCreatedItems(claimant.userId, campaign.merchant_id, view, claimant.appId)),
  ]);
  if (!outcome.committed) {
    // The card or the user's marker is taken; otherwise the progress item moved under us.
    if (outcome.reasons[0] === 'ConditionalCheckFailed' || outcome.reasons[1] === 'ConditionalCheckFailed') throw LEGACY_ALREADY_MIGRATED();
    throw unprocessable('claim', 'base', 'Your progress changed while the card was migrated; please try again.', 'conflict');
  }
  return view;
}

async function appServesMerchant(appId: number, merchantId: number): Promise<boolean> {
  const app = await getApp(appId);
  return app !== undefined && (app.global || app.merchant_ids.includes(merchantId));
}

function claimedMarkerItem(userId: number, campaign: CampaignItem, claimId: number, now: string): TransactItem {
  return CampaignClaimed.at(userId, campaign.merchant_id, campaign.campaign_id).putNew({
    user_id: userId,
    merchant_id: campaign.merchant_id,
    campaign_id: campaign.campaign_id,
    claim_id: claimId,
    created_at: now,
  });
}

function claimCounterItem(campaign: CampaignItem): TransactItem {
  // A campaign with a cap takes a claim only while it is below the cap.
  const condition = campaign.max_claims !== null ? and(itemExists, below('claims_count', campaign.max_claims)) : itemExists;
  return Campaign.at(campaign.campaign_id).update({ add: { claims_count: 1 } }, condition);
}

function claimCreditItems(userId: number, campaign: CampaignItem, claimId: number, amount: number): TransactItem[] {
  if (amount <= 0 || !countsAsCredit(campaign)) return [];
  return creditEarnedTransactItems({
    userId,
    merchantId: campaign.merchant_id,
    amount,
    entryId: `claim:${claimId}`,
    reference: { claim_id: claimId, campaign_id: campaign.campaign_id },
  });
}

/** Adds migrated progress (guarded by the progress item's version; it earns on the next qualifying order). */
async function progressAdjustmentItem(userId: number, target: CampaignItem, amount: number, now: string): Promise<TransactItem> {
  const existing = await getProgress(userId, target);
  return putProgressItem(
    userId,
    target,
    existing,
    {
      progress: (existing?.progress ?? 0) + amount,
      period_starts_at: existing?.period_starts_at ?? null,
      period_resets_at: existing?.period_resets_at ?? null,
      goals_rewarded: existing?.goals_rewarded ?? [],
    },
    now,
  );
}

interface LegacyCardAttributes {
  campaign_id: number;
  legacy_id: string;
  value_amount: number;
  progress_amount: number;
  /** The holder's email, lower-cased, when the legacy record has one: only the user with that email may claim it. */
  email?: string | null;
  claimed_by_user_id: number | null;
  claim_id: number | null;
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A card of a legacy loyalty program (`keys.legacyCard`), imported to be migrated once into a claim. */
const LegacyCard = defineEntity<LegacyCardAttributes>()({ entity: 'LegacyCard', key: keys.legacyCard });
export type LegacyCardItem = EntityItem<typeof LegacyCard>;

export async function getLegacyCard(campaignId: number, legacyId: string): Promise<LegacyCardItem | undefined> {
  return LegacyCard.at(campaignId, legacyId).get({ consistent: true });
}

/** Imports legacy cards (operator tool). Existing cards are left as they are; returns what was new. */
export async function importLegacyCards(
  campaignId: number,
  cards: { legacy_id: string; value_amount: number; progress_amount?: number; email?: string | null }[],
): Promise<{ imported: number; skipped: number }> {
  const campaign = await getCampaign(campaignId);
  if (!campaign || campaign.kind !== 'legacy') throw new Error(`campaign ${campaignId} is not a legacy campaign`);
  let imported = 0;
  let skipped = 0;
  for (const card of cards) {
    const legacyId = String(card.legacy_id).trim();
    if (legacyId === '' || !Number.isInteger(card.value_amount) || card.value_amount < 0) throw new Error(`invalid legacy card ${JSON.stringify(card)}`);
    const now = isoSeconds();
    // Spread: createItem takes a plain record.
    const created = await createItem({
      ...LegacyCard.at(campaignId, legacyId).item({
        campaign_id: campaignId,
        legacy_id: legacyId,
        value_amount: card.value_amount,
        progress_amount: card.progress_amount ?? 0,
        email: card.email ? card.email.trim().toLowerCase() : null,
        claimed_by_user_id: null,
        claim_id: null,
        claimed_at: null,
        created_at: now,
        updated_at: now,
      }),
    });
    if (created) imported += 1;
    else skipped += 1;
  }
  return { imported, skipped };
}

import { getCampaign, type CampaignItem, type CampaignKind } from '#shared/domain/loyalty/campaigns.ts';
import { campaignVisibleTo, currentProgress, loadCampaignViewerState, type ClaimedItem, type ProgressItem } from '#shared/domain/loyalty/user-state.ts';

export const REPRESENTATION_TYPES = [
  'basic_v1',
  'custom_progress_based_v1',
  'item_based_loyalty_v1',
  'spend_based_loyalty_v1',
  'visit_based_loyalty_v1',
  'item_based_gift_card_loyalty_v1',
  'spend_based_gift_card_loyalty_v1',
] as const;
export type RepresentationType = (typeof REPRESENTATION_TYPES)[number];

/**
 * Which representations a campaign kind can be shown in. basic_v1 applies to every campaign; each
 * loyalty representation applies to exactly its own kind (so custom_progress_based_v1 is never served
 * for gift card based loyalty, as the contract says). Anything else is "cannot be displayed" (404).
 */
const APPLICABLE: Record<CampaignKind, readonly RepresentationType[]> = {
  spend: ['basic_v1', 'spend_based_loyalty_v1'],
  item: ['basic_v1', 'item_based_loyalty_v1'],
  visit: ['basic_v1', 'visit_based_loyalty_v1'],
  item_gift_card: ['basic_v1', 'item_based_gift_card_loyalty_v1'],
  spend_gift_card: ['basic_v1', 'spend_based_gift_card_loyalty_v1'],
  custom_progress: ['basic_v1', 'custom_progress_based_v1'],
  value: ['basic_v1'],
  legacy: ['basic_v1'],
};

export function representationTypesFor(campaign: Pick<CampaignItem, 'kind'>): readonly RepresentationType[] {
  return APPLICABLE[campaign.kind];
}

/**
 * The campaign in the requested representation with the user's own progress, or undefined when it
 * does not exist or cannot be displayed to this user: the representation does not apply to its kind,
 * it is locked and not (or no longer) unlocked for the user, or its merchant is not one the token's app serves.
 */
export async function campaignRepresentation(
  campaignId: number,
  type: RepresentationType,
  viewer: { userId: number; appId: number },
  at = new Date(),
): Promise<Record<string, unknown> | undefined> {
  const campaign = await getCampaign(campaignId);
  if (!campaign || !APPLICABLE[campaign.kind].includes(type)) return undefined;
  const { app, unlock, progress, claimed } = await loadCampaignViewerState(viewer, campaign, {
    unlock: campaign.locked,
    progress: type !== 'basic_v1',
    claimed: type === 'custom_progress_based_v1' && campaign.requires_opt_in,
  });
  if (!app || !(app.global || app.merchant_ids.includes(campaign.merchant_id))) return undefined;
  if (!campaignVisibleTo(campaign, unlock, at)) return undefined;
  return { campaign: serializeRepresentation(campaign, type, progress, claimed, at) };
}

export function serializeRepresentation(
  campaign: CampaignItem,
  type: RepresentationType,
  progressItem: ProgressItem | undefined,
  claimed: ClaimedItem | undefined,
  at: Date,
): Record<string, unknown> {
  const progress = currentProgress(progressItem, at);
  switch (type) {
    case 'basic_v1':
      return { description: campaign.description, title: campaign.title };
    case 'custom_progress_based_v1':
      return {
        closes_at: campaign.closes_at,
        currency: campaign.currency,
        current_progress: progress.amount,
        description: campaign.description,
        id: campaign.campaign_id,
        image: null,
        opens_at: campaign.opens_at,
        opted_in: campaign.requires_opt_in ? claimed !== undefined : null,
        point_label_singular: campaign.point_label_singular,
        point_label_plural: campaign.point_label_plural,
        progress_type: campaign.progress_type,
        qualifying_order_spend_amount: campaign.qualifying_order_spend_amount,
        required_item_plural: campaign.required_item_plural,
        required_item_singular: campaign.required_item_singular,
        requires_opt_in: campaign.requires_opt_in,
        title: campaign.title,
        goals: campaign.goals.map((goal) => ({
          goal: {
            accomplished: progress.amount >= goal.progress_required,
            description: goal.description,
            id: goal.id,
            image: null,
            progress_required: goal.progress_required,
            title: goal.title,
          },
        })),
      };
    case 'item_based_loyalty_v1':
      return {
        progress_item_count: progress.amount,
        required_item_count: campaign.required_item_count,
        required_item_plural: campaign.required_item_plural,
        required_item_singular: campaign.required_item_singular,
        reward_article: campaign.reward_article,
        reward_title: campaign.reward_title,
      };
    case 'spend_based_loyalty_v1':
      return { earn_amount: campaign.earn_amount, progress_amount: progress.amount, required_spend_amount: campaign.required_spend_amount };
    case 'visit_based_loyalty_v1':
      return {
        progress_visit_count: progress.amount,
        required_visit_count: campaign.required_visit_count,
        earn_amount: campaign.earn_amount,
        qualifying_order_spend_amount: campaign.qualifying_order_spend_amount ?? 0,
      };
    case 'item_based_gift_card_loyalty_v1':
      return {
        description: campaign.description,
        title: campaign.title,
        progress_item_count: progress.amount,
        progress_period_starts_at: progress.startsAt,
        progress_period_resets_at: progress.resetsAt,
        required_item_plural: campaign.required_item_plural,
        required_item_singular: campaign.required_item_singular,
        required_item_count: campaign.required_item_count,
        reward_article: campaign.reward_article,
        reward_title: campaign.reward_title,
      };
    case 'spend_based_gift_card_loyalty_v1':
      return {
        currency: campaign.currency,
        description: campaign.description,
        title: campaign.title,
        progress_amount: progress.amount,
        progress_period_starts_at: progress.startsAt,
        progress_period_resets_at: progress.resetsAt,
        earn_amount: campaign.earn_amount,
        required_spend_amount: campaign.required_spend_amount,
        reward_article: campaign.reward_article,
        reward_title: campaign.reward_title,
      };
  }
}

import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { getLocationListing } from '#shared/domain/merchants/locations.ts';
import {
  campaignIdForCohortCode,
  getCampaign,
  isOpen,
  loadMerchantCatalogSummaries,
  type CampaignItem,
  type CampaignSummary,
} from '#shared/domain/loyalty/campaigns.ts';
import { representationTypesFor } from '#shared/domain/loyalty/representations.ts';
import { escapeHtml } from '#shared/mail/mailer.ts';
import type { WindowLimit } from '#shared/domain/rate-limits.ts';

/** Anonymous cohort-code lookups per client address (A21): an app looks up the one code its user typed. */
export const CODE_LOOKUPS_PER_CLIENT: WindowLimit = { name: 'code-lookup-client', limit: 60, windowSeconds: 15 * 60 };

/**
 * Campaigns as the app surface shows them without a user (A18-A22): which campaigns a location or a
 * merchant offers and in which representations (iOS then asks GET /v15/campaigns/:id/:type for one of
 * them), a campaign in the v14 form, the campaign behind a cohort code, and its merchants.
 *
 * Public means: open now, not locked (a locked campaign is only for the users a merchant unlocked it
 * for, and only their own token shows it, through the contract's routes), and not a legacy campaign
 * (those only receive migrated cards).
 */
export function isPublic(campaign: CampaignSummary, at: Date): boolean {
  return isOpen(campaign, at) && !campaign.locked && campaign.kind !== 'legacy';
}

export interface CampaignMetadata {
  campaign: { id: number; representation_types: string[] };
}

function metadata(campaigns: readonly CampaignSummary[], at: Date): CampaignMetadata[] {
  return campaigns
    .filter((campaign) => isPublic(campaign, at))
    .sort((a, b) => a.campaign_id - b.campaign_id)
    .map((campaign) => ({ campaign: { id: campaign.campaign_id, representation_types: [...representationTypesFor(campaign)] } }));
}

/** A18: a shown location's public campaigns (its merchant's: campaigns apply at every location of their merchant); undefined when no such location. */
export async function locationCampaigns(locationId: number, at = new Date()): Promise<CampaignMetadata[] | undefined> {
  const location = await getLocationListing(locationId);
  if (!location || !location.shown) return undefined;
  return metadata((await loadMerchantCatalogSummaries(location.merchant_id)).campaigns, at);
}

/** A19: a merchant's public campaigns; undefined when no such merchant. One Query when the merchant is listed in its catalog partition. */
export async function merchantCampaigns(merchantId: number, at = new Date()): Promise<CampaignMetadata[] | undefined> {
  const catalog = await loadMerchantCatalogSummaries(merchantId);
  if (!catalog.merchantListed && !(await getMerchant(merchantId))) return undefined;
  return metadata(catalog.campaigns, at);
}

/** What a v14 campaign's `value_amount` is: the credit a claim gives, or the reward a loyalty goal earns. */
function valueOf(campaign: CampaignItem): number {
  return campaign.kind === 'value' ? campaign.value_amount : campaign.earn_amount;
}

/**
 * The v14 campaign (A20, A21): the fields iOS and Android read. Our campaigns belong to one merchant
 * (`applies_to_all_merchants` false) and are not referral campaigns: nothing to share (`shareable`
 * false, empty share texts and URLs, which both SDKs read as strings).
 */
export async function legacyCampaignView(campaign: CampaignItem) {
  const merchant = await getMerchant(campaign.merchant_id);
  const value = valueOf(campaign);
  const dollars = `$${(value / 100).toFixed(2)}`;
  return {
    campaign: {
      applies_to_all_merchants: false,
      confirmation_html:
        campaign.kind === 'value'
          ? `<p>You just loaded ${dollars} to spend at ${escapeHtml(merchant?.name ?? 'this merchant')}.</p>`
          : `<p>${escapeHtml(campaign.title)}</p>`,
      id: campaign.campaign_id,
      message_for_email_body: '',
      message_for_email_subject: '',
      message_for_facebook: '',
      message_for_twitter: '',
      name: campaign.title,
      offer_html: `<p>${escapeHtml(campaign.description || campaign.title)}</p>`,
      share_url_email: '',
      share_url_facebook: '',
      share_url_twitter: '',
      shareable: false,
      sponsor: merchant?.name ?? '',
      type: campaign.kind,
      value_amount: value,
    },
  };
}

/** A public campaign by id; undefined when it does not exist or is not public. */
export async function publicCampaign(campaignId: number, at = new Date()): Promise<CampaignItem | undefined> {
  const campaign = await getCampaign(campaignId);
  return campaign && isPublic(campaign, at) ? campaign : undefined;
}

/**
 * A21: the campaign behind a cohort code. Locked campaigns are not shown here either: a code is a
 * public promotion, and the claim (POST /v15/codes/:code/claims) applies the same rules.
 */
export async function campaignForCode(code: string, at = new Date()): Promise<CampaignItem | undefined> {
  const campaignId = await campaignIdForCohortCode(code);
  return campaignId === undefined ? undefined : publicCampaign(campaignId, at);
}

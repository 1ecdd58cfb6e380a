/**
 * What the app surface beyond the contract answers, as LevelUp's iOS, Android and Ruby SDKs read it: categories,
 * post-order interstitials, support tickets, campaign metadata and v14 campaigns, location summaries. Field names
 * and types are what the SDKs read (strings where iOS needs strings).
 */
import * as z from '#shared/schemas/zod.ts';
import { INTERSTITIAL_TYPES, interstitialAction } from '#shared/schemas/app-surface.ts';
import { cents, integerId, timestamp } from './common.ts';
import { location } from './locations.ts';
import { named, namedItemList, resource } from './registry.ts';

// ---------------------------------------------------------------------------------------------
// Categories (A5)

export const category = named('Category', z.object({ id: integerId, name: z.string() }));
export const categoryList = z.array(z.object({ category }));

// ---------------------------------------------------------------------------------------------
// Interstitials (A6) and support tickets (A8)

export const interstitialResponse = resource('Interstitial', 'interstitial', {
  type: z.enum(INTERSTITIAL_TYPES),
  title: z.string(),
  description_html: z.string(),
  callout_text: z.string(),
  image_url: z.string().check(z.describe('Base URL of the image; clients append density, width and height (a 302 to the image)')),
  action: interstitialAction,
});

export const ticketResponse = named(
  'Ticket',
  z.object({ ticket: z.object({ id: integerId, body: z.string(), user_id: integerId, created_at: timestamp, updated_at: timestamp }) }),
);

// ---------------------------------------------------------------------------------------------
// Campaigns (A18-A22)

export const campaignMetadataList = namedItemList('CampaignMetadata', 'campaign', {
  id: integerId,
  representation_types: z.array(z.string()).check(z.describe('Representations GET /v15/campaigns/:id/:representation_type serves for this campaign')),
});

export const legacyCampaignResponse = resource('CampaignV14', 'campaign', {
  applies_to_all_merchants: z.boolean(),
  confirmation_html: z.string(),
  id: integerId,
  message_for_email_body: z.string(),
  message_for_email_subject: z.string(),
  message_for_facebook: z.string(),
  message_for_twitter: z.string(),
  name: z.string(),
  offer_html: z.string(),
  share_url_email: z.string(),
  share_url_facebook: z.string(),
  share_url_twitter: z.string(),
  shareable: z.boolean(),
  sponsor: z.string(),
  type: z.string(),
  value_amount: cents,
});

export const campaignMerchantIds = z.array(integerId).check(z.describe('Ids of the merchants the campaign applies to'));

// ---------------------------------------------------------------------------------------------
// Location summaries (A28)

export const locationSummaryList = z.array(
  z.object({
    location: named(
      'LocationSummary',
      z.union([
        z.object({
          id: integerId,
          categories: z.array(integerId),
          latitude: z.number(),
          longitude: z.number(),
          merchant_id: integerId,
          merchant_name: z.string(),
          name: z.string(),
          shown: z.literal(true),
          updated_at: timestamp,
        }),
        z.object({ id: integerId, shown: z.literal(false), updated_at: timestamp }).check(z.describe('A hidden location: clients delete their copy')),
      ]),
    ),
  }),
);

/** The v14 app-locations list (A29): the Location with what iOS's location factory reads besides. */
export const locationListV14 = z.array(
  z.object({
    location: named(
      'LocationV14',
      z.extend(location, {
        name: z.string(),
        phone: z.nullable(z.string()),
        visible: z.boolean().check(z.describe('Same as shown (older clients read this name)')),
        category_names: z.array(z.string()).check(z.describe('Names of `categories`, in the same order (GET /v14/categories)')),
      }),
    ),
  }),
);

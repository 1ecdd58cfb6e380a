import * as z from 'zod';
import { cents, integerId, timestamp } from './common.ts';
import { named, schema } from './registry.ts';
import { location } from './locations.ts';

/**
 * The app surface beyond the contract, as LevelUp's iOS, Android and Ruby SDKs call it: categories,
 * post-order interstitials and feedback, support tickets, campaign metadata and v14 campaigns, location
 * summaries. Field names and types are what the SDKs read (strings where iOS needs strings).
 */

// ---------------------------------------------------------------------------------------------
// Categories (A5)

export const category = /* @__PURE__ */ schema(() => named('Category', z.object({ id: integerId, name: z.string() })));
export const categoryList = /* @__PURE__ */ schema(() => z.array(z.object({ category })));

// ---------------------------------------------------------------------------------------------
// Interstitials (A6) and feedback (A7)

/** The documented interstitial types; iOS also knows collect_feedback and navigation, which we never send. */
export const INTERSTITIAL_TYPES = ['claim', 'feedback', 'share', 'url', 'no_action'] as const;
export type InterstitialType = (typeof INTERSTITIAL_TYPES)[number];

const shareAction = /* @__PURE__ */ schema(() => z.object({
  message_for_email_subject: z.string(),
  message_for_email_body: z.string(),
  message_for_facebook: z.string(),
  message_for_twitter: z.string(),
  share_url_email: z.string(),
  share_url_facebook: z.string(),
  share_url_twitter: z.string(),
}));
export type ShareAction = z.infer<typeof shareAction>;

export const interstitialAction = /* @__PURE__ */ schema(() => z.union([
  z.object({ code: z.string() }).describe('claim: the cohort code to claim with POST /v15/codes/:code/claims'),
  z.object({ question_text: z.string() }).describe('feedback: answered with POST /v15/orders/:uuid/feedback'),
  shareAction.describe('share'),
  z.object({ url: z.string(), button_text: z.string() }).describe('url'),
  z.null().describe('no_action'),
]));
export type InterstitialAction = z.infer<typeof interstitialAction>;

export const interstitialResponse = /* @__PURE__ */ schema(() => named(
  'Interstitial',
  z.object({
    interstitial: z.object({
      type: z.enum(INTERSTITIAL_TYPES),
      title: z.string(),
      description_html: z.string(),
      callout_text: z.string(),
      image_url: z.string().describe('Base URL of the image; clients append density, width and height (a 302 to the image)'),
      action: interstitialAction,
    }),
  }),
));

/** iOS sends the rating as a string (`"5"`, `""` for none), Android as an integer. */
const rating = /* @__PURE__ */ schema(() => z
  .union([z.number().int(), z.string().trim().regex(/^(\d{1,2})?$/, 'must be a whole number from 0 to 10')])
  .nullish()
  .transform((value) => (value === undefined || value === null || value === '' ? null : Number(value)))
  .refine((value) => value === null || (value >= 0 && value <= 10), 'must be a whole number from 0 to 10'));

export const feedbackRequest = /* @__PURE__ */ schema(() => z.object({
  feedback: z.object({
    question_text: z.string().max(500).nullish().transform((value) => value ?? ''),
    rating,
    comment: z.string().max(2000).nullish().transform((value) => value ?? null),
  }),
}));
export type FeedbackRequest = z.output<typeof feedbackRequest>;

// ---------------------------------------------------------------------------------------------
// Support tickets (A8)

/** Longest ticket body accepted (a support message, not an upload). */
export const MAX_TICKET_BODY = 5000;

export const ticketRequest = /* @__PURE__ */ schema(() => z.object({
  ticket: z.object({
    body: z
      .string()
      .trim()
      .min(1, "can't be blank")
      .max(MAX_TICKET_BODY, `is too long (at most ${MAX_TICKET_BODY} characters)`),
  }),
}));

export const ticketResponse = /* @__PURE__ */ schema(() => named(
  'Ticket',
  z.object({ ticket: z.object({ id: integerId, body: z.string(), user_id: integerId, created_at: timestamp, updated_at: timestamp }) }),
));

// ---------------------------------------------------------------------------------------------
// Campaigns (A18-A22)

export const campaignMetadataList = /* @__PURE__ */ schema(() => z.array(
  z.object({
    campaign: named(
      'CampaignMetadata',
      z.object({
        id: integerId,
        representation_types: z.array(z.string()).describe('Representations GET /v15/campaigns/:id/:representation_type serves for this campaign'),
      }),
    ),
  }),
));

export const legacyCampaignResponse = /* @__PURE__ */ schema(() => named(
  'CampaignV14',
  z.object({
    campaign: z.object({
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
    }),
  }),
));

export const campaignMerchantIds = /* @__PURE__ */ schema(() => z.array(integerId).describe('Ids of the merchants the campaign applies to'));

// ---------------------------------------------------------------------------------------------
// Location summaries (A28)

export const locationSummaryList = /* @__PURE__ */ schema(() => z.array(
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
        z.object({ id: integerId, shown: z.literal(false), updated_at: timestamp }).describe('A hidden location: clients delete their copy'),
      ]),
    ),
  }),
));

/** The v14 app-locations list (A29): the Location with what iOS's location factory reads besides. */
export const locationListV14 = /* @__PURE__ */ schema(() => z.array(
  z.object({
    location: named(
      'LocationV14',
      location.extend({
        name: z.string(),
        phone: z.string().nullable(),
        visible: z.boolean().describe('Same as shown (older clients read this name)'),
        category_names: z.array(z.string()).describe('Names of `categories`, in the same order (GET /v14/categories)'),
      }),
    ),
  }),
));

/**
 * The app surface beyond the contract, as LevelUp's iOS, Android and Ruby SDKs call it: what it accepts (post-order
 * feedback, support tickets). What it answers is in shared/schemas/responses/app-surface.ts.
 */
import * as z from '#shared/schemas/zod.ts';

// ---------------------------------------------------------------------------------------------
// Interstitials (A6) and feedback (A7)

/** The documented interstitial types; iOS also knows collect_feedback and navigation, which we never send. */
export const INTERSTITIAL_TYPES = ['claim', 'feedback', 'share', 'url', 'no_action'] as const;
export type InterstitialType = (typeof INTERSTITIAL_TYPES)[number];

const shareAction = z.object({
  message_for_email_subject: z.string(),
  message_for_email_body: z.string(),
  message_for_facebook: z.string(),
  message_for_twitter: z.string(),
  share_url_email: z.string(),
  share_url_facebook: z.string(),
  share_url_twitter: z.string(),
});
export type ShareAction = z.infer<typeof shareAction>;

export const interstitialAction = z.union([
  z.object({ code: z.string() }).check(z.describe('claim: the cohort code to claim with POST /v15/codes/:code/claims')),
  z.object({ question_text: z.string() }).check(z.describe('feedback: answered with POST /v15/orders/:uuid/feedback')),
  shareAction.check(z.describe('share')),
  z.object({ url: z.string(), button_text: z.string() }).check(z.describe('url')),
  z.null().check(z.describe('no_action')),
]);
export type InterstitialAction = z.infer<typeof interstitialAction>;

/** iOS sends the rating as a string (`"5"`, `""` for none), Android as an integer. */
const rating = z
  .pipe(
    z.nullish(z.union([z.number().check(z.int()), z.string().check(z.trim(), z.regex(/^(\d{1,2})?$/, 'must be a whole number from 0 to 10'))])),
    z.transform((value) => (value === undefined || value === null || value === '' ? null : Number(value))),
  )
  .check(z.refine((value) => value === null || (value >= 0 && value <= 10), 'must be a whole number from 0 to 10'));

export const feedbackRequest = z.object({
  feedback: z.object({
    question_text: z.pipe(
      z.nullish(z.string().check(z.maxLength(500))),
      z.transform((value) => value ?? ''),
    ),
    rating,
    comment: z.pipe(
      z.nullish(z.string().check(z.maxLength(2000))),
      z.transform((value) => value ?? null),
    ),
  }),
});
export type FeedbackRequest = z.output<typeof feedbackRequest>;

// ---------------------------------------------------------------------------------------------
// Support tickets (A8)

/** Longest ticket body accepted (a support message, not an upload). */
export const MAX_TICKET_BODY = 5000;

export const ticketRequest = z.object({
  ticket: z.object({
    body: z.string().check(z.trim(), z.minLength(1, "can't be blank"), z.maxLength(MAX_TICKET_BODY, `is too long (at most ${MAX_TICKET_BODY} characters)`)),
  }),
});

/**
 * A merchant's campaigns through the management API (docs/merchant-api.md "Campaigns"): the requests. Every text,
 * number and list is bounded here; the rules of each kind (which requirement it needs) are the loyalty engine's own
 * (`createCampaign`, shared/domain/loyalty/campaigns.ts), which every creation goes through. Answers:
 * shared/schemas/responses/campaigns.ts.
 */
import * as z from '#shared/schemas/zod.ts';
import { pathId } from './params.ts';

/**
 * The kinds a merchant creates: every kind of the loyalty engine but `legacy`, whose cards only the operators import
 * and whose app pointer (one legacy campaign per app, shared by every merchant the app serves) is the platform's.
 */
export const MANAGED_CAMPAIGN_KINDS = ['spend', 'item', 'visit', 'item_gift_card', 'spend_gift_card', 'custom_progress', 'value'] as const;

/** Most credit one reward may carry: what one order can earn at most (MAX_ORDER_CREDIT_EARNED, loyalty/order-effects.ts). */
export const MAX_CAMPAIGN_REWARD_AMOUNT = 50_000;
/** Largest spend requirement ($100,000) and item or visit count a campaign may ask for. */
export const MAX_REQUIRED_SPEND_AMOUNT = 10_000_000;
export const MAX_REQUIRED_COUNT = 1_000;
export const MAX_CAMPAIGN_TITLE_LENGTH = 100;
export const MAX_CAMPAIGN_DESCRIPTION_LENGTH = 1_000;
const MAX_LABEL_LENGTH = 40;
const MAX_TAGS = 10;
const MAX_ITEM_RULES = 20;
/** Goals of a custom progress campaign (MAX_CAMPAIGN_GOALS, loyalty/campaigns.ts). */
const MAX_GOALS = 20;

const tooLong = (maximum: number) => ({ error: `is too long (maximum is ${maximum} characters)` });
const text = (maximum: number) => z.string().check(z.maxLength(maximum, tooLong(maximum)));
const title = z
  .string()
  .check(z.trim(), z.minLength(1, { error: "can't be blank" }), z.maxLength(MAX_CAMPAIGN_TITLE_LENGTH, tooLong(MAX_CAMPAIGN_TITLE_LENGTH)));
const label = z.nullable(text(MAX_LABEL_LENGTH));
const wholeNumber = (minimum: number, maximum: number) =>
  z.number().check(z.int(), z.gte(minimum, `must be at least ${minimum}`), z.lte(maximum, `must be at most ${maximum}`));
const rewardAmount = wholeNumber(0, MAX_CAMPAIGN_REWARD_AMOUNT);
// A pattern, not `z.iso.datetime`: the document declares no `format: date-time` (test/openapi/document.test.ts holds every
// answered time to the contract's form); a time the pattern admits but no calendar has (02-30, 25:00) is refused after it.
const INSTANT_PATTERN = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,3})?(Z|[+-](\d\d):(\d\d))$/;
function onTheCalendar(value: string): boolean {
  const match = INSTANT_PATTERN.exec(value);
  if (!match) return true; // the pattern's own check has said so
  const [, year, month, day, hour, minute, second, , , offsetHours, offsetMinutes] = match.map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day));
  return (
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day! &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    !(offsetHours! >= 24) &&
    !(offsetMinutes! >= 60)
  );
}
const instantError = 'must be an ISO 8601 time with its offset';
const instant = z.string().check(z.maxLength(40, tooLong(40)), z.regex(INSTANT_PATTERN, instantError), z.refine(onTheCalendar, instantError));
// Hours up to 23 by a refinement: the document's pattern stays one its example builder can sample.
const timeOfDay = z.string().check(
  z.regex(/^[0-2]\d:[0-5]\d$/, 'must be HH:MM'),
  z.refine((value) => Number(value.slice(0, 2)) <= 23, 'must be HH:MM'),
);

/** Every field of a campaign as a merchant sends it, each bounded (all optional but `kind` and `title` at creation). */
const fields = {
  title,
  description: text(MAX_CAMPAIGN_DESCRIPTION_LENGTH),
  opens_at: instant,
  closes_at: z.nullable(instant),
  requires_opt_in: z.boolean(),
  locked: z.boolean(),
  // Credit is in the platform's one currency: a campaign in another could never be spent.
  currency: z.enum(['USD']),
  point_label_singular: label,
  point_label_plural: label,
  cohort_code: z.nullable(z.string().check(z.regex(/^[A-Za-z0-9_-]{3,40}$/, 'must be 3-40 letters, digits, - or _'))),
  tags: z.array(z.string().check(z.minLength(1), z.maxLength(MAX_LABEL_LENGTH, tooLong(MAX_LABEL_LENGTH)))).check(z.maxLength(MAX_TAGS)),
  required_spend_amount: z.nullable(wholeNumber(1, MAX_REQUIRED_SPEND_AMOUNT)),
  required_item_count: z.nullable(wholeNumber(1, MAX_REQUIRED_COUNT)),
  required_visit_count: z.nullable(wholeNumber(1, MAX_REQUIRED_COUNT)),
  qualifying_order_spend_amount: z.nullable(wholeNumber(0, MAX_REQUIRED_SPEND_AMOUNT)),
  earn_amount: rewardAmount,
  item_rules: z
    .array(z.object({ field: z.enum(['sku', 'category', 'name']), value: z.string().check(z.minLength(1), z.maxLength(100, tooLong(100))) }))
    .check(z.maxLength(MAX_ITEM_RULES)),
  required_item_singular: text(MAX_LABEL_LENGTH),
  required_item_plural: text(MAX_LABEL_LENGTH),
  reward_title: title,
  reward_article: text(10),
  progress_period_days: z.nullable(wholeNumber(1, 366)),
  progress_type: z.nullable(z.enum(['item', 'spend'])),
  goals: z
    .array(
      z.object({
        title,
        description: z.optional(text(500)),
        progress_required: wholeNumber(1, MAX_REQUIRED_SPEND_AMOUNT),
        earn_amount: z.optional(rewardAmount),
      }),
    )
    .check(z.maxLength(MAX_GOALS)),
  value_amount: rewardAmount,
  max_claims: z.nullable(wholeNumber(1, 1_000_000)),
  transferable: z.boolean(),
  transfer_required: z.boolean(),
  usable_hours: z.nullable(z.object({ start: timeOfDay, end: timeOfDay })),
};
type Fields = typeof fields;
const optional = <const Names extends keyof Fields>(names: readonly Names[]) =>
  Object.fromEntries(names.map((name) => [name, z.optional(fields[name])])) as { [Name in Names]: z.ZodMiniOptional<Fields[Name]> };

/**
 * What the engine stores but could not run for a merchant's campaign: a claim is the only way to a value campaign's
 * credit and the only opt-in, and both go through the cohort code; a closing time already past makes a campaign
 * that never earns.
 */
function runnable(
  campaign: { kind: string; cohort_code?: string | null; requires_opt_in?: boolean; value_amount?: number; closes_at?: string | null },
  context: z.core.$RefinementCtx,
) {
  const issue = (field: string, message: string) => context.addIssue({ code: 'custom', path: [field], message });
  if (campaign.kind === 'value' && !campaign.cohort_code) issue('cohort_code', 'is required for value campaigns (users claim them by their code)');
  if (campaign.kind === 'value' && !campaign.value_amount) issue('value_amount', 'must be more than 0 for value campaigns');
  if (campaign.requires_opt_in && !campaign.cohort_code) issue('cohort_code', 'is required when the campaign requires opt-in (users opt in by claiming it)');
  if (campaign.closes_at && Date.parse(campaign.closes_at) <= Date.now()) issue('closes_at', 'must be in the future');
}

/**
 * The fields a campaign's economics were computed under, besides its `kind`: fixed once it exists (close it and
 * create another). Users' progress, their rewards and the refunds that undo them were worked out under these.
 */
export const FIXED_CAMPAIGN_FIELDS = [
  'opens_at',
  'requires_opt_in',
  'locked',
  'currency',
  'cohort_code',
  'tags',
  'required_spend_amount',
  'required_item_count',
  'required_visit_count',
  'qualifying_order_spend_amount',
  'earn_amount',
  'item_rules',
  'progress_period_days',
  'progress_type',
  'goals',
  'value_amount',
  'max_claims',
  'transferable',
  'transfer_required',
  'usable_hours',
] as const;
export type FixedCampaignField = (typeof FIXED_CAMPAIGN_FIELDS)[number];

/** What an edit may change: how the campaign reads, and a later end. */
export const EDITABLE_CAMPAIGN_FIELDS = [
  'title',
  'description',
  'reward_title',
  'reward_article',
  'required_item_singular',
  'required_item_plural',
  'point_label_singular',
  'point_label_plural',
  'closes_at',
] as const;

/** `/v15/merchants/{merchant_id}/campaigns` */
export const merchantCampaignsParams = z.object({ merchant_id: pathId });
/** `/v15/merchants/{merchant_id}/campaigns/{campaign_id}` (and `/close`) */
export const merchantCampaignParams = z.object({ merchant_id: pathId, campaign_id: pathId });

/** POST /v15/merchants/{merchant_id}/campaigns: a new campaign of any kind but `legacy` (the merchant is the path's). */
export const campaignCreateBody = z.object({
  campaign: z
    .object({
      ...optional(['description', 'opens_at', 'closes_at', 'requires_opt_in', 'locked', 'currency', 'point_label_singular', 'point_label_plural']),
      ...optional(['cohort_code', 'tags', 'required_spend_amount', 'required_item_count', 'required_visit_count', 'qualifying_order_spend_amount']),
      ...optional(['earn_amount', 'item_rules', 'required_item_singular', 'required_item_plural', 'reward_title', 'reward_article']),
      ...optional(['progress_period_days', 'progress_type', 'goals', 'value_amount', 'max_claims', 'transferable', 'transfer_required', 'usable_hours']),
      kind: z.enum(MANAGED_CAMPAIGN_KINDS, { message: `must be one of ${MANAGED_CAMPAIGN_KINDS.join(', ')} (legacy campaigns are the operators')` }),
      title,
    })
    .check(z.superRefine(runnable)),
});
export type CampaignCreate = z.output<typeof campaignCreateBody>['campaign'];

/**
 * PUT /v15/merchants/{merchant_id}/campaigns/{campaign_id}: the editable fields; a fixed field may be sent only as
 * the campaign holds it (a console sends back what it showed), else 422 `not_editable`.
 */
export const campaignUpdateBody = z.object({
  campaign: z
    .object({ ...optional(EDITABLE_CAMPAIGN_FIELDS), ...optional(FIXED_CAMPAIGN_FIELDS), kind: z.optional(text(MAX_LABEL_LENGTH)) })
    .check(
      z.refine((change) => EDITABLE_CAMPAIGN_FIELDS.some((name) => change[name] !== undefined), { message: 'must name a field to change', path: ['title'] }),
    ),
});
export type CampaignUpdate = z.output<typeof campaignUpdateBody>['campaign'];

/** POST /v15/merchants/{merchant_id}/campaigns/{campaign_id}/close: at once (no body, `{}`), or at a later `closes_at`. */
export const campaignCloseBody = z.optional(z.object({ campaign: z.optional(z.object({ closes_at: z.optional(instant) })) }));

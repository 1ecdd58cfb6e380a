import { projectionOf, queryAll } from '#shared/db/reads.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '#shared/schemas/zod.ts';
import { db, table } from '#shared/db/client.ts';
import { defineEntity } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { nextId } from '#shared/db/ids.ts';
import { counterAllows } from '#shared/db/conditions.ts';
import { LabelledItems, lostRace, putNew, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { isoSeconds } from '#shared/time.ts';

/**
 * Campaign kinds. The first six accrue progress from orders; `value` campaigns give credit when their
 * cohort code is claimed; a `legacy` campaign receives cards migrated from an older loyalty program.
 */
export const CAMPAIGN_KINDS = ['spend', 'item', 'visit', 'item_gift_card', 'spend_gift_card', 'custom_progress', 'value', 'legacy'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];
export const PROGRESS_KINDS: readonly CampaignKind[] = ['spend', 'item', 'visit', 'item_gift_card', 'spend_gift_card', 'custom_progress'];

export interface ItemRule {
  /** Which order item field the rule compares (case-insensitive equality). */
  field: 'sku' | 'category' | 'name';
  value: string;
}

export interface Goal {
  id: number;
  title: string;
  description: string;
  progress_required: number;
  /** Credit earned once when the user's progress first reaches the goal (0 = recognition only). */
  earn_amount: number;
}

/** Local time of day (in the location's time zone) during which a campaign's rewards may be used. */
export interface UsableHours {
  start: string;
  end: string;
}

export interface CampaignItem {
  campaign_id: number;
  merchant_id: number;
  kind: CampaignKind;
  title: string;
  description: string;
  opens_at: string;
  closes_at: string | null;
  requires_opt_in: boolean;
  /** Locked campaigns apply only to users the merchant unlocked them for. */
  locked: boolean;
  currency: string;
  point_label_singular: string | null;
  point_label_plural: string | null;
  cohort_code: string | null;
  tags: string[];
  required_spend_amount: number | null;
  required_item_count: number | null;
  required_visit_count: number | null;
  qualifying_order_spend_amount: number | null;
  earn_amount: number;
  item_rules: ItemRule[];
  required_item_singular: string;
  required_item_plural: string;
  reward_title: string;
  reward_article: string;
  /** Gift card loyalty: progress resets this many days after the period started. */
  progress_period_days: number | null;
  /** Custom progress: what counts. */
  progress_type: 'item' | 'spend' | null;
  goals: Goal[];
  /** Value campaigns: credit each claim grants. */
  value_amount: number;
  /** How many users may claim in total (null = unlimited). */
  max_claims: number | null;
  claims_count: number;
  transferable: boolean;
  transfer_required: boolean;
  usable_hours: UsableHours | null;
  /** Legacy campaigns: the app whose users migrate cards, and the loyalty campaign their progress moves to. */
  app_id: number | null;
  progress_campaign_id: number | null;
  created_at: string;
  updated_at: string;
  /** Raised by each change of the campaign (absent: never changed): the guard of the management API's edits. */
  version?: number;
}

/** Goals of one custom progress campaign (an adjustment reaching them all stays well inside one transaction). */
export const MAX_CAMPAIGN_GOALS = 20;

/**
 * What an operator supplies to create a campaign (the admin CLI and the demo seed). Built on first
 * use, so the API functions that read campaigns do not build it at cold start.
 */
function buildCampaignInputSchema() {
  const timeOfDay = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM'));
  const cents = z.number().check(z.int(), z.nonnegative());
  const positiveCount = z.number().check(z.int(), z.positive());
  const isoDateTime = z.iso.datetime({ offset: true });

  return z
    .object({
      merchant_id: z.number().check(z.int(), z.positive()),
      kind: z.enum(CAMPAIGN_KINDS),
      title: z.string().check(z.minLength(1)),
      description: z._default(z.string(), ''),
      opens_at: z.optional(isoDateTime),
      closes_at: z._default(z.nullable(isoDateTime), null),
      requires_opt_in: z._default(z.boolean(), false),
      locked: z._default(z.boolean(), false),
      currency: z._default(z.string().check(z.regex(/^[A-Z]{3}$/)), 'USD'),
      point_label_singular: z._default(z.nullable(z.string()), null),
      point_label_plural: z._default(z.nullable(z.string()), null),
      cohort_code: z._default(z.nullable(z.string().check(z.regex(/^[A-Za-z0-9_-]{3,40}$/, 'must be 3-40 letters, digits, - or _'))), null),
      tags: z._default(z.array(z.string()), []),
      required_spend_amount: z._default(z.nullable(positiveCount), null),
      required_item_count: z._default(z.nullable(positiveCount), null),
      required_visit_count: z._default(z.nullable(positiveCount), null),
      qualifying_order_spend_amount: z._default(z.nullable(cents), null),
      earn_amount: z._default(cents, 0),
      item_rules: z._default(z.array(z.object({ field: z.enum(['sku', 'category', 'name']), value: z.string().check(z.minLength(1)) })), []),
      required_item_singular: z._default(z.string(), 'item'),
      required_item_plural: z._default(z.string(), 'items'),
      reward_title: z.optional(z.string()),
      reward_article: z._default(z.string(), 'a'),
      progress_period_days: z._default(z.nullable(positiveCount), null),
      progress_type: z._default(z.nullable(z.enum(['item', 'spend'])), null),
      // Bounded: one order or adjustment may reach every goal at once, each a reward and its event in one transaction.
      goals: z._default(
        z
          .array(
            z.object({
              title: z.string().check(z.minLength(1)),
              description: z._default(z.string(), ''),
              progress_required: positiveCount,
              earn_amount: z._default(cents, 0),
            }),
          )
          .check(z.maxLength(MAX_CAMPAIGN_GOALS)),
        [],
      ),
      value_amount: z._default(cents, 0),
      max_claims: z._default(z.nullable(positiveCount), null),
      transferable: z._default(z.boolean(), false),
      transfer_required: z._default(z.boolean(), false),
      usable_hours: z._default(z.nullable(z.object({ start: timeOfDay, end: timeOfDay })), null),
      app_id: z._default(z.nullable(z.number().check(z.int(), z.positive())), null),
      progress_campaign_id: z._default(z.nullable(z.number().check(z.int(), z.positive())), null),
    })
    .check(
      z.superRefine((input, context) => {
        const need = (field: keyof typeof input, message: string) => {
          if (input[field] === null || input[field] === undefined) context.addIssue({ code: 'custom', path: [field], message });
        };
        const kind = input.kind;
        if (kind === 'spend' || kind === 'spend_gift_card') need('required_spend_amount', `is required for ${kind} campaigns`);
        if (kind === 'item' || kind === 'item_gift_card') need('required_item_count', `is required for ${kind} campaigns`);
        if (kind === 'visit') need('required_visit_count', 'is required for visit campaigns');
        if (kind === 'item_gift_card' || kind === 'spend_gift_card') need('progress_period_days', `is required for ${kind} campaigns`);
        if (kind === 'custom_progress') {
          need('progress_type', 'is required for custom_progress campaigns');
          if (input.goals.length === 0) context.addIssue({ code: 'custom', path: ['goals'], message: 'needs at least one goal' });
        }
        if ((kind === 'item' || kind === 'item_gift_card' || (kind === 'custom_progress' && input.progress_type === 'item')) && input.item_rules.length === 0) {
          context.addIssue({ code: 'custom', path: ['item_rules'], message: 'needs at least one rule (sku, category or name) for item progress' });
        }
        if (kind === 'legacy') need('app_id', 'is required for legacy campaigns');
        if (input.opens_at && input.closes_at && Date.parse(input.closes_at) <= Date.parse(input.opens_at)) {
          context.addIssue({ code: 'custom', path: ['closes_at'], message: 'must be after opens_at' });
        }
      }),
    );
}

let campaignInput: ReturnType<typeof buildCampaignInputSchema> | undefined;
const campaignInputSchema = () => (campaignInput ??= buildCampaignInputSchema());

export type CampaignInput = z.input<ReturnType<typeof buildCampaignInputSchema>>;

/** One reason a campaign cannot be created: the field (`goals.0.title`; `base` for the whole) and why. */
export interface CampaignIssue {
  field: string;
  message: string;
  /** `invalid` (the input), `taken` (a cohort code or an app's legacy campaign), `too_many` (the merchant's limit). */
  code: 'invalid' | 'taken' | 'too_many';
}

/** A campaign refused for its input, with every reason (the CLI prints the message, the API answers each issue). */
export class CampaignInputError extends Error {
  constructor(readonly issues: readonly CampaignIssue[]) {
    super(issues.map((issue) => `${issue.field}: ${issue.message}`).join('; '));
  }
}

/** A creation cancelled by a guard that is not the campaign's own (an item the caller added), or by a race it lost. */
export class CampaignNotCreated extends Error {
  constructor(
    readonly failed: ReadonlySet<string>,
    readonly lostRace: boolean,
  ) {
    super(`campaign creation cancelled: ${[...failed].join(',') || 'transaction conflict'}`);
  }
}

/**
 * Most campaigns one merchant may create. Every order's completion and every rewards list reads all of the
 * merchant's campaigns (one Query of its catalog), so the count stays small; a closed campaign still counts.
 */
export const MAX_CAMPAIGNS_PER_MERCHANT = 200;

/** A merchant's campaign count (`keys.merchantCampaignCount`): written by each creation, guarded by the limit. */
export const CampaignCount = defineEntity<{ merchant_id: number; campaign_count: number; updated_at: string }>()({
  entity: 'CampaignCount',
  key: keys.merchantCampaignCount,
});

/** Items a caller commits in the creation's own transaction (its audit entry, its Idempotency-Key's answer), by label. */
export type CampaignAlongside = (campaign: CampaignItem) => [label: string, item: TransactItem | undefined][];

/**
 * Creates a campaign. Its cohort code (and, for a legacy campaign, its app's legacy pointer) is
 * written in the same transaction, guarded, so codes stay unique and an app has one legacy campaign;
 * the merchant's campaign count too, guarded by MAX_CAMPAIGNS_PER_MERCHANT. `alongside` adds the caller's
 * items to that transaction; a failure of one of them is CampaignNotCreated.
 */
export async function createCampaign(rawInput: CampaignInput, alongside?: CampaignAlongside): Promise<CampaignItem> {
  const parsed = campaignInputSchema().safeParse(rawInput);
  if (!parsed.success) {
    throw new CampaignInputError(
      parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || 'base', message: issue.message, code: 'invalid' as const })),
    );
  }
  const input = parsed.data;
  const campaignId = await nextId('campaign');
  const goalIds = await Promise.all(input.goals.map(() => nextId('campaign_goal')));
  const now = isoSeconds();
  const campaign: CampaignItem = {
    campaign_id: campaignId,
    merchant_id: input.merchant_id,
    kind: input.kind,
    title: input.title,
    description: input.description,
    opens_at: input.opens_at ? isoSeconds(new Date(input.opens_at)) : now,
    closes_at: input.closes_at ? isoSeconds(new Date(input.closes_at)) : null,
    requires_opt_in: input.requires_opt_in,
    locked: input.locked,
    currency: input.currency,
    point_label_singular: input.point_label_singular,
    point_label_plural: input.point_label_plural,
    cohort_code: input.cohort_code ? input.cohort_code.toUpperCase() : null,
    tags: input.tags,
    required_spend_amount: input.required_spend_amount,
    required_item_count: input.required_item_count,
    required_visit_count: input.required_visit_count,
    qualifying_order_spend_amount: input.qualifying_order_spend_amount,
    earn_amount: input.earn_amount,
    item_rules: input.item_rules,
    required_item_singular: input.required_item_singular,
    required_item_plural: input.required_item_plural,
    reward_title: input.reward_title ?? input.title,
    reward_article: input.reward_article,
    progress_period_days: input.progress_period_days,
    progress_type: input.kind === 'custom_progress' ? input.progress_type : null,
    goals: input.goals.map((goal, index) => ({ id: goalIds[index]!, ...goal })),
    value_amount: input.value_amount,
    max_claims: input.max_claims,
    claims_count: 0,
    transferable: input.transferable || input.transfer_required,
    transfer_required: input.transfer_required,
    usable_hours: input.usable_hours,
    app_id: input.app_id,
    progress_campaign_id: input.progress_campaign_id,
    created_at: now,
    updated_at: now,
  };
  const batch = new LabelledItems();
  batch.add(
    'campaign',
    putNew({ ...keys.campaign(campaignId), ...keys.merchantCampaignsIndex(campaign.merchant_id, campaignId), entity: 'Campaign', ...campaign }),
  );
  batch.add(
    'count',
    CampaignCount.at(campaign.merchant_id).update(
      { add: { campaign_count: 1 }, set: { merchant_id: campaign.merchant_id, updated_at: now }, creates: true },
      counterAllows('campaign_count', MAX_CAMPAIGNS_PER_MERCHANT, 1),
    ),
  );
  if (campaign.cohort_code) {
    batch.add(
      'cohort_code',
      putNew({
        ...keys.cohortCode(campaign.cohort_code),
        entity: 'CohortCode',
        code: campaign.cohort_code,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      }),
    );
  }
  if (campaign.kind === 'legacy' && campaign.app_id !== null) {
    batch.add(
      'legacy',
      putNew({
        ...keys.appLegacyCampaign(campaign.app_id),
        entity: 'AppLegacyCampaign',
        app_id: campaign.app_id,
        campaign_id: campaignId,
        created_at: now,
        updated_at: now,
      }),
    );
  }
  for (const [label, item] of alongside?.(campaign) ?? []) if (item) batch.add(label, item);
  const outcome = await transactWrite(() => batch.items);
  if (!outcome.committed) {
    const failed = batch.failedLabels(outcome.reasons);
    if (failed.has('cohort_code'))
      throw new CampaignInputError([{ field: 'cohort_code', message: `${campaign.cohort_code} is already in use`, code: 'taken' }]);
    if (failed.has('legacy'))
      throw new CampaignInputError([{ field: 'app_id', message: `app ${campaign.app_id} already has a legacy campaign`, code: 'taken' }]);
    if (failed.has('count')) {
      throw new CampaignInputError([
        { field: 'base', message: `a merchant may create at most ${MAX_CAMPAIGNS_PER_MERCHANT} campaigns (closed ones count)`, code: 'too_many' },
      ]);
    }
    throw new CampaignNotCreated(failed, lostRace(outcome));
  }
  return campaign;
}

/** A campaign as stored (`keys.campaign`; gsi1: its merchant's campaigns). */
export const Campaign = defineEntity<CampaignItem>()({ entity: 'Campaign', key: keys.campaign });

export async function getCampaign(campaignId: number): Promise<CampaignItem | undefined> {
  return Campaign.at(campaignId).get({ consistent: false });
}

export async function campaignIdForCohortCode(code: string): Promise<number | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.cohortCode(code) }));
  return result.Item?.campaign_id as number | undefined;
}

export async function legacyCampaignIdForApp(appId: number): Promise<number | undefined> {
  const result = await db().send(new GetCommand({ TableName: table(), Key: keys.appLegacyCampaign(appId) }));
  return result.Item?.campaign_id as number | undefined;
}

/** A merchant's campaigns (gsi1 Query, paged through; merchants have tens, not thousands). */
export async function listMerchantCampaigns(merchantId: number): Promise<CampaignItem[]> {
  return (await queryMerchantCatalog(merchantId, true)).campaigns;
}

/**
 * The merchant's catalog partition in one Query: its campaigns and, for merchants created since the
 * merchant item carries `keys.merchantCatalogEntry`, the merchant itself (`merchantListed`), so the
 * rewards list learns "does it exist?" without a separate GetItem.
 */
export async function loadMerchantCatalog(merchantId: number): Promise<{ merchantListed: boolean; campaigns: CampaignItem[] }> {
  return queryMerchantCatalog(merchantId);
}

/** What a campaign list without a user shows of each campaign (A18, A19): whether it is public now, its id and kind. */
export type CampaignSummary = Pick<CampaignItem, 'campaign_id' | 'kind' | 'locked' | 'opens_at' | 'closes_at'>;

/** A catalog Query's projection: `entity` (which rows are campaigns, and the merchant's own row) and `attributes`. */
function catalogProjection(attributes: readonly string[]): ReturnType<typeof projectionOf> {
  return projectionOf(['entity', ...attributes]);
}

/** The attributes loadMerchantCatalogSummaries reads: a CampaignSummary's. */
const SUMMARY_PROJECTION = catalogProjection(
  Object.keys({ campaign_id: true, kind: true, locked: true, opens_at: true, closes_at: true } satisfies Record<keyof CampaignSummary, true>),
);

/**
 * loadMerchantCatalog's one Query reading only the CampaignSummary of each campaign: a campaign item has
 * ~40 attributes (rules, goals, labels, texts) that a list of ids and representation types never shows,
 * and each would be sent, parsed and unmarshalled on every request.
 */
export async function loadMerchantCatalogSummaries(merchantId: number): Promise<{ merchantListed: boolean; campaigns: CampaignSummary[] }> {
  return queryMerchantCatalog<CampaignSummary>(merchantId, false, SUMMARY_PROJECTION);
}

/** What the rewards list (shared/domain/loyalty/rewards.ts) reads of each campaign: whether it is open and visible now, and its offer's fields. */
export type CampaignOffer = Pick<
  CampaignItem,
  | 'campaign_id'
  | 'kind'
  | 'locked'
  | 'opens_at'
  | 'closes_at'
  | 'title'
  | 'description'
  | 'created_at'
  | 'tags'
  | 'transfer_required'
  | 'transferable'
  | 'value_amount'
  | 'max_claims'
  | 'claims_count'
  | 'earn_amount'
  | 'reward_title'
>;

const OFFER_PROJECTION = catalogProjection(
  Object.keys({
    campaign_id: true,
    kind: true,
    locked: true,
    opens_at: true,
    closes_at: true,
    title: true,
    description: true,
    created_at: true,
    tags: true,
    transfer_required: true,
    transferable: true,
    value_amount: true,
    max_claims: true,
    claims_count: true,
    earn_amount: true,
    reward_title: true,
  } satisfies Record<keyof CampaignOffer, true>),
);

/**
 * loadMerchantCatalog's one Query reading only what the rewards list shows of each campaign (16 of its ~40
 * attributes: no rules, goals, labels, usable hours) and only `entity` of the merchant's own row, which says
 * that the merchant exists: the rest would be sent, parsed and unmarshalled on every request.
 */
export async function loadMerchantCatalogOffers(merchantId: number): Promise<{ merchantListed: boolean; campaigns: CampaignOffer[] }> {
  return queryMerchantCatalog<CampaignOffer>(merchantId, false, OFFER_PROJECTION);
}

/** `Campaign`: the type of what the projection reads of each campaign (whole items without one). */
async function queryMerchantCatalog<Campaign = CampaignItem>(
  merchantId: number,
  campaignsOnly = false,
  projection?: ReturnType<typeof projectionOf>,
): Promise<{ merchantListed: boolean; campaigns: Campaign[] }> {
  const campaigns: Campaign[] = [];
  let merchantListed = false;
  const { gsi1pk, skPrefix } = keys.merchantCampaigns(merchantId);
  const items = await queryAll({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: campaignsOnly ? 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)' : 'gsi1pk = :pk',
    ExpressionAttributeValues: campaignsOnly ? { ':pk': gsi1pk, ':prefix': skPrefix } : { ':pk': gsi1pk },
    ...projection,
  });
  for (const item of items) {
    if (item.entity === 'Campaign') campaigns.push(item as Campaign);
    else if (item.entity === 'Merchant') merchantListed = true;
  }
  return { merchantListed, campaigns };
}

export function isOpen(campaign: Pick<CampaignItem, 'opens_at' | 'closes_at'>, at: Date): boolean {
  return Date.parse(campaign.opens_at) <= at.getTime() && (campaign.closes_at === null || at.getTime() < Date.parse(campaign.closes_at));
}

export function isProgressCampaign(campaign: Pick<CampaignItem, 'kind'>): boolean {
  return PROGRESS_KINDS.includes(campaign.kind);
}

/** The amount of progress that earns one reward, for the kinds that earn repeatedly. */
export function progressRequired(campaign: CampaignItem): number | null {
  switch (campaign.kind) {
    case 'spend':
    case 'spend_gift_card':
      return campaign.required_spend_amount;
    case 'item':
    case 'item_gift_card':
      return campaign.required_item_count;
    case 'visit':
      return campaign.required_visit_count;
    default:
      return null;
  }
}

export function hasProgressPeriod(campaign: CampaignItem): boolean {
  return (campaign.kind === 'item_gift_card' || campaign.kind === 'spend_gift_card') && campaign.progress_period_days !== null;
}

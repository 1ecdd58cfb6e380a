/**
 * A merchant's campaigns through the management API (docs/merchant-api.md "Campaigns"): list, show, create, edit,
 * close. A creation goes through the loyalty engine's own `createCampaign` (the operators' CLI calls it too), so a
 * campaign made here serves the app and POS routes exactly as theirs do. Every change is one transaction with its
 * audit entry and the Idempotency-Key's answer; an edit or a close is guarded by the campaign's merchant and version.
 *
 * Money safety of edits: users' progress, the rewards they earned and the refunds that undo them were computed under
 * the campaign's economics (kind, requirements, amounts, item rules, goals, period, opt-in, lock, tags), so those
 * stay as created (422 `not_editable`: close it and create another). What an edit changes is how the campaign reads
 * (a reward keeps the title it was earned under) and a later end.
 */
import { and, equals, versionIs } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { pageInKeyOrder, type KeyOrderPosition } from '#shared/db/reads.ts';
import { LabelledItems, lostRace, transactWrite, type TransactItem } from '#shared/db/transactions.ts';
import { auditEntry, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import { Campaign, CampaignInputError, CampaignNotCreated, createCampaign, type CampaignItem } from '#shared/domain/loyalty/campaigns.ts';
import { canonicalJson } from '#shared/domain/money/idempotency.ts';
import { conflict, errorDetail, merchantHasNo, unprocessable, unprocessableAll } from '#shared/errors.ts';
import type { AuditAction } from '#shared/schemas/audit.ts';
import { EDITABLE_CAMPAIGN_FIELDS, FIXED_CAMPAIGN_FIELDS, type CampaignCreate, type CampaignUpdate } from '#shared/schemas/campaigns.ts';
import { isoSeconds } from '#shared/time.ts';

/** Campaigns on one page of the list. */
export const CAMPAIGN_PAGE_SIZE = 50;

export const CAMPAIGN_NOT_FOUND = () => merchantHasNo('campaign', 'campaign');
const CAMPAIGN_CHANGED = () => conflict('The campaign changed while this change was made; send it again.', 1, 'campaign', 'campaign_changed');

/** `scheduled` before it opens, `open` while it earns and can be claimed, `closed` from its `closes_at` on. */
export type CampaignState = 'scheduled' | 'open' | 'closed';

export function campaignState(campaign: Pick<CampaignItem, 'opens_at' | 'closes_at'>, at: Date): CampaignState {
  if (campaign.closes_at !== null && Date.parse(campaign.closes_at) <= at.getTime()) return 'closed';
  return Date.parse(campaign.opens_at) > at.getTime() ? 'scheduled' : 'open';
}

/** A campaign as the management API answers it: every field its merchant set, its claims so far and its state now. */
export function campaignView(campaign: CampaignItem, at: Date = new Date()) {
  return {
    campaign: {
      id: campaign.campaign_id,
      merchant_id: campaign.merchant_id,
      kind: campaign.kind,
      state: campaignState(campaign, at),
      title: campaign.title,
      description: campaign.description,
      opens_at: campaign.opens_at,
      closes_at: campaign.closes_at,
      requires_opt_in: campaign.requires_opt_in,
      locked: campaign.locked,
      currency: campaign.currency,
      point_label_singular: campaign.point_label_singular,
      point_label_plural: campaign.point_label_plural,
      cohort_code: campaign.cohort_code,
      tags: campaign.tags,
      required_spend_amount: campaign.required_spend_amount,
      required_item_count: campaign.required_item_count,
      required_visit_count: campaign.required_visit_count,
      qualifying_order_spend_amount: campaign.qualifying_order_spend_amount,
      earn_amount: campaign.earn_amount,
      item_rules: campaign.item_rules,
      required_item_singular: campaign.required_item_singular,
      required_item_plural: campaign.required_item_plural,
      reward_title: campaign.reward_title,
      reward_article: campaign.reward_article,
      progress_period_days: campaign.progress_period_days,
      progress_type: campaign.progress_type,
      goals: campaign.goals,
      value_amount: campaign.value_amount,
      max_claims: campaign.max_claims,
      claims_count: campaign.claims_count,
      transferable: campaign.transferable,
      transfer_required: campaign.transfer_required,
      usable_hours: campaign.usable_hours,
      app_id: campaign.app_id,
      progress_campaign_id: campaign.progress_campaign_id,
      created_at: campaign.created_at,
      updated_at: campaign.updated_at,
    },
  };
}
type CampaignFields = ReturnType<typeof campaignView>['campaign'];

/** Whether a paging cursor names a campaign's place in its merchant's catalog. */
export const isCampaignCursor = keys.isCampaignSortKey;

/** The cursor after a campaign: its sort key in the merchant's catalog (gsi1). */
export function campaignPosition(campaign: CampaignItem): string {
  return keys.merchantCampaignsIndex(campaign.merchant_id, campaign.campaign_id).gsi1sk;
}

/**
 * One page of the merchant's campaigns by id, open and closed. `cursor` (from a previous page's Link) resumes after
 * that campaign; without it, `page` skips whole pages. The catalog partition also holds the merchant's own row,
 * which sorts after every campaign and is left out.
 */
export async function listCampaigns(merchantId: number, position: KeyOrderPosition, pageSize = CAMPAIGN_PAGE_SIZE): Promise<CampaignItem[]> {
  const { gsi1pk, skPrefix } = keys.merchantCampaigns(merchantId);
  return pageInKeyOrder({ index: 'gsi1', pk: gsi1pk, skPrefix }, position, pageSize, (item) => {
    const campaign = Campaign.from(item);
    return campaign?.entity === 'Campaign' ? campaign : undefined;
  });
}

/** One campaign of the merchant (404 for an id of no campaign of this merchant, whoever's it is). */
export async function getMerchantCampaign(merchantId: number, campaignId: number): Promise<CampaignItem> {
  const campaign = await Campaign.at(campaignId).get({ consistent: true });
  if (!campaign || campaign.merchant_id !== merchantId) throw CAMPAIGN_NOT_FOUND();
  return campaign;
}

/** `goals.0.title` -> "Goals 0 title": the start of an error message, as request validation writes it. */
function humanize(field: string): string {
  const words = field.replace(/[_.]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The Idempotency-Key's stored answer for what a change committed, for the change's own transaction. */
export type StoreCampaignResponse = (campaign: CampaignItem) => TransactItem | undefined;

/**
 * Creates a campaign of the merchant through the loyalty engine's `createCampaign` (its kind rules, its cohort code
 * and its count guards), with the audit entry and the stored answer in the same transaction.
 */
export async function createMerchantCampaign(
  merchantId: number,
  input: CampaignCreate,
  context: AuditContext,
  storeResponse: StoreCampaignResponse,
): Promise<CampaignItem> {
  try {
    return await createCampaign({ ...input, merchant_id: merchantId }, (campaign) => [
      ...campaignCreatedItems(context, campaign),
      ['idempotency', storeResponse(campaign)],
    ]);
  } catch (error) {
    if (error instanceof CampaignInputError) {
      throw unprocessableAll(error.issues.map((issue) => errorDetail('campaign', issue.field, `${humanize(issue.field)} ${issue.message}`, issue.code)));
    }
    // The Idempotency-Key's record went to a request that took the key over, or a concurrent write won: retry.
    if (error instanceof CampaignNotCreated && (error.lostRace || error.failed.has('idempotency'))) throw CAMPAIGN_CHANGED();
    throw error;
  }
}

/**
 * A new campaign's audit entry, for its creation's transaction: the management route's, and the operators'
 * `npm run admin -- create-campaign` (with OPERATOR_AUDIT), so the merchant's log shows every campaign and who made it.
 */
export function campaignCreatedItems(context: AuditContext, campaign: CampaignItem): [label: string, item: TransactItem][] {
  return [['audit', auditEntry(context, audited('campaign.created', campaign, null, campaignView(campaign).campaign))]];
}

function audited(action: AuditAction, campaign: CampaignItem, before: unknown, after: unknown) {
  return { merchantId: campaign.merchant_id, action, object: { type: 'campaign', id: campaign.campaign_id }, before, after };
}

type FixedField = (typeof FIXED_CAMPAIGN_FIELDS)[number] | 'kind';
type Goal = { title: string; description?: string; progress_required: number; earn_amount?: number };

/** How a fixed field compares: instants as instants, codes without case, goals without the ids the engine gave them. */
const COMPARED_AS: Partial<Record<FixedField, (value: never) => unknown>> = {
  opens_at: (value: string) => Date.parse(value),
  cohort_code: (value: string | null) => value?.toUpperCase() ?? null,
  goals: (goals: Goal[]) =>
    goals.map((goal) => ({
      title: goal.title,
      description: goal.description ?? '',
      progress_required: goal.progress_required,
      earn_amount: goal.earn_amount ?? 0,
    })),
};

function sameValue(field: FixedField, sent: unknown, held: unknown): boolean {
  const compared = (COMPARED_AS[field] ?? ((value: unknown) => value)) as (value: unknown) => unknown;
  return canonicalJson(compared(sent)) === canonicalJson(compared(held));
}

/** A fixed field sent with another value than the campaign holds: 422 `not_editable`, naming each. */
function refuseFixedChanges(change: CampaignUpdate, held: CampaignFields): void {
  const changed = (['kind', ...FIXED_CAMPAIGN_FIELDS] as const).filter((field) => change[field] !== undefined && !sameValue(field, change[field], held[field]));
  if (changed.length === 0) return;
  throw unprocessableAll(
    changed.map((field) =>
      errorDetail(
        'campaign',
        field,
        `${humanize(field)} cannot change once the campaign exists (users' progress and rewards were computed under it): close this campaign and create a new one.`,
        'not_editable',
      ),
    ),
  );
}

/** A new end must be later than the one it replaces, and the campaign not closed yet (a closed campaign never reopens). */
function refuseEarlierEnd(current: CampaignItem, closesAt: string | null, now: Date): void {
  const refuse = (message: string, code: string) => {
    throw unprocessable('campaign', 'closes_at', message, code);
  };
  if (campaignState(current, now) === 'closed')
    refuse('Closes at cannot change: the campaign is closed, and a closed campaign never reopens.', 'campaign_closed');
  if (current.closes_at === null) refuse('Closes at cannot be set by an edit of a campaign without an end: close it (POST .../close) to end it.', 'not_later');
  if (closesAt !== null && Date.parse(closesAt) <= Date.parse(current.closes_at!)) {
    refuse('Closes at can only move later by an edit: close the campaign (POST .../close) to end it sooner.', 'not_later');
  }
}

/**
 * Edits how a campaign reads and extends its end (the editable fields; the fixed ones only as they are). Nothing to
 * change answers the campaign as it is. A concurrent change of the campaign is 409 `campaign_changed`.
 */
export async function updateMerchantCampaign(
  merchantId: number,
  campaignId: number,
  change: CampaignUpdate,
  context: AuditContext,
  storeResponse: StoreCampaignResponse,
): Promise<CampaignItem> {
  const current = await getMerchantCampaign(merchantId, campaignId);
  const now = new Date();
  const held = campaignView(current, now).campaign;
  refuseFixedChanges(change, held);
  const changes: Partial<CampaignItem> = {};
  for (const field of EDITABLE_CAMPAIGN_FIELDS) {
    const value = field === 'closes_at' && change.closes_at ? isoSeconds(new Date(change.closes_at)) : change[field];
    if (value !== undefined && value !== held[field]) Object.assign(changes, { [field]: value });
  }
  if (changes.closes_at !== undefined) refuseEarlierEnd(current, changes.closes_at, now);
  const changed = Object.keys(changes) as (keyof typeof changes)[];
  if (changed.length === 0) return current;
  const set = { ...changes, updated_at: isoSeconds(now), version: (current.version ?? 0) + 1 };
  const updated: CampaignItem = { ...current, ...set };
  const pick = (campaign: CampaignItem) => Object.fromEntries(changed.map((field) => [field, campaign[field]]));
  await commitChange(current, set, { context, change: audited('campaign.updated', current, pick(current), pick(updated)), at: now }, storeResponse(updated));
  return updated;
}

/**
 * Closes a campaign at once (`closesAt` absent: now) or at a later time, never later than the end it has. A closed
 * campaign earns nothing afterwards and cannot be claimed; the rewards users hold stay theirs and spendable (they are
 * credit at the merchant, not tied to the campaign being open). Closing a closed campaign answers it as it is.
 */
export async function closeMerchantCampaign(
  merchantId: number,
  campaignId: number,
  closesAt: string | undefined,
  context: AuditContext,
  storeResponse: StoreCampaignResponse,
): Promise<CampaignItem> {
  const current = await getMerchantCampaign(merchantId, campaignId);
  const now = new Date();
  if (campaignState(current, now) === 'closed') return current;
  if (closesAt !== undefined && Date.parse(closesAt) <= now.getTime()) {
    throw unprocessable('campaign', 'closes_at', 'Closes at must be in the future: send none to close the campaign now.', 'invalid');
  }
  const end = isoSeconds(closesAt === undefined ? now : new Date(closesAt));
  if (current.closes_at !== null && Date.parse(end) > Date.parse(current.closes_at)) {
    throw unprocessable(
      'campaign',
      'closes_at',
      `Closes at cannot be later than the campaign's end (${current.closes_at}): edit the campaign to extend it.`,
      'not_earlier',
    );
  }
  if (end === current.closes_at) return current;
  const set = { closes_at: end, updated_at: isoSeconds(now), version: (current.version ?? 0) + 1 };
  const updated: CampaignItem = { ...current, ...set };
  const summary = (campaign: CampaignItem) => ({ closes_at: campaign.closes_at, state: campaignState(campaign, now) });
  await commitChange(
    current,
    set,
    { context, change: audited('campaign.closed', current, summary(current), summary(updated)), at: now },
    storeResponse(updated),
  );
  return updated;
}

/**
 * Writes the changed fields of a campaign if it is still the merchant's at the version read, with its audit entry
 * and stored answer in the same transaction.
 */
async function commitChange(
  current: CampaignItem,
  set: Partial<CampaignItem>,
  audit: { context: AuditContext; change: ReturnType<typeof audited>; at: Date },
  stored: TransactItem | undefined,
): Promise<void> {
  const items = new LabelledItems();
  items.add(
    'campaign',
    Campaign.at(current.campaign_id).update(
      { set },
      and<'merchant_id' | 'version'>(equals('merchant_id', current.merchant_id), versionIs(current.version ?? 0)),
    ),
  );
  items.add('audit', auditEntry(audit.context, audit.change, audit.at));
  if (stored) items.add('idempotency', stored);
  const outcome = await transactWrite(() => items.items);
  if (outcome.committed) return;
  const failed = items.failedLabels(outcome.reasons);
  if (failed.has('campaign') || failed.has('idempotency') || lostRace(outcome)) throw CAMPAIGN_CHANGED();
  throw new Error(`campaign change cancelled: ${outcome.reasons.join(',')}`);
}

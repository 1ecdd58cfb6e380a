import type { components, paths } from '../../clients/typescript/index.ts';
import { formatMoney } from './format.ts';

/** A campaign as the management API answers it (docs/merchant-api.md, "Campaigns"). */
export type Campaign = components['schemas']['MerchantCampaign']['campaign'];
/** The kinds a merchant creates: every kind but `legacy` (the operators'). */
export type CampaignKind = Exclude<Campaign['kind'], 'legacy'>;
export type CampaignState = Campaign['state'];
type CreateBody = paths['/v15/merchants/{merchant_id}/campaigns']['post']['requestBody']['content']['application/json']['campaign'];
type UpdateBody = paths['/v15/merchants/{merchant_id}/campaigns/{campaign_id}']['put']['requestBody']['content']['application/json']['campaign'];
type ItemField = Campaign['item_rules'][number]['field'];

/** Each kind in the words a merchant knows it by, and what it means to a customer. */
export const KINDS: readonly { value: CampaignKind; label: string; means: string }[] = [
  { value: 'spend', label: 'Spend', means: 'Customers earn credit each time their spend here reaches an amount.' },
  { value: 'visit', label: 'Visits', means: 'Customers earn credit after a number of visits (orders of at least an amount).' },
  { value: 'item', label: 'Items', means: 'Customers earn credit after buying a number of chosen items.' },
  {
    value: 'spend_gift_card',
    label: 'Spend within a period (gift card)',
    means: 'Customers earn a gift card when they spend an amount within a number of days of their first order.',
  },
  {
    value: 'item_gift_card',
    label: 'Items within a period (gift card)',
    means: 'Customers earn a gift card when they buy a number of chosen items within a number of days.',
  },
  { value: 'custom_progress', label: 'Goals (points)', means: 'Customers collect points (spend or items) that never reset, and reach goals one by one.' },
  { value: 'value', label: 'Code for credit', means: 'Customers enter a code in the app and get credit at once.' },
];

export const kindLabel = (kind: Campaign['kind']): string =>
  kind === 'legacy' ? 'Older program (operators)' : (KINDS.find((entry) => entry.value === kind)?.label ?? kind);

/** The state as the API names it, with what it means for a customer. */
export const STATE_WORDS: Record<CampaignState, string> = {
  scheduled: 'scheduled (not started yet)',
  open: 'open (customers earn now)',
  closed: 'closed (earns nothing more)',
};

/** One item rule as typed: which field of an order's item to compare, and its value. */
export interface ItemRuleDraft {
  field: ItemField;
  value: string;
}

/** One goal of a points campaign as typed (amounts as the person types them). */
export interface GoalDraft {
  title: string;
  description: string;
  progress_required: string;
  earn: string;
}

/**
 * The form's fields as typed (text, as the inputs hold it): money in dollars, counts as digits, times as a
 * `datetime-local` value read as UTC. `createBody` / `updateBody` turn it into the API's fields (cents, numbers).
 */
export interface CampaignDraft {
  kind: CampaignKind;
  title: string;
  description: string;
  reward_title: string;
  reward_article: string;
  required_spend: string;
  required_item_count: string;
  required_visit_count: string;
  qualifying_order_spend: string;
  earn: string;
  progress_period_days: string;
  item_rules: ItemRuleDraft[];
  required_item_singular: string;
  required_item_plural: string;
  progress_type: 'spend' | 'item';
  goals: GoalDraft[];
  point_label_singular: string;
  point_label_plural: string;
  value: string;
  cohort_code: string;
  max_claims: string;
  requires_opt_in: boolean;
  locked: boolean;
  opens_at: string;
  closes_at: string;
}

export const emptyGoal = (): GoalDraft => ({ title: '', description: '', progress_required: '', earn: '' });

export function emptyDraft(): CampaignDraft {
  return {
    kind: 'spend',
    title: '',
    description: '',
    reward_title: '',
    reward_article: 'a',
    required_spend: '',
    required_item_count: '',
    required_visit_count: '',
    qualifying_order_spend: '',
    earn: '',
    progress_period_days: '',
    item_rules: [{ field: 'sku', value: '' }],
    required_item_singular: 'item',
    required_item_plural: 'items',
    progress_type: 'spend',
    goals: [emptyGoal()],
    point_label_singular: '',
    point_label_plural: '',
    value: '',
    cohort_code: '',
    max_claims: '',
    requires_opt_in: false,
    locked: false,
    opens_at: '',
    closes_at: '',
  };
}

const dollars = (cents: number | null | undefined): string => (cents === null || cents === undefined ? '' : (cents / 100).toFixed(2));
const digits = (count: number | null | undefined): string => (count === null || count === undefined ? '' : String(count));
/** An API time as a `datetime-local` value in UTC (minutes). */
export const localUtc = (timestamp: string | null): string => (timestamp ? new Date(timestamp).toISOString().slice(0, 16) : '');

/** A saved campaign as the form shows it (the edit form, and the preview of the detail page). */
export function draftOf(campaign: Campaign): CampaignDraft {
  const progressIsItems = campaign.kind === 'custom_progress' && campaign.progress_type === 'item';
  return {
    kind: campaign.kind === 'legacy' ? 'value' : campaign.kind,
    title: campaign.title,
    description: campaign.description,
    reward_title: campaign.reward_title,
    reward_article: campaign.reward_article,
    required_spend: dollars(campaign.required_spend_amount),
    required_item_count: digits(campaign.required_item_count),
    required_visit_count: digits(campaign.required_visit_count),
    qualifying_order_spend: dollars(campaign.qualifying_order_spend_amount),
    earn: dollars(campaign.earn_amount),
    progress_period_days: digits(campaign.progress_period_days),
    item_rules: campaign.item_rules.map((rule) => ({ ...rule })),
    required_item_singular: campaign.required_item_singular,
    required_item_plural: campaign.required_item_plural,
    progress_type: campaign.progress_type ?? 'spend',
    goals: campaign.goals.map((goal) => ({
      title: goal.title,
      description: goal.description,
      progress_required: progressIsItems ? String(goal.progress_required) : dollars(goal.progress_required),
      earn: dollars(goal.earn_amount),
    })),
    point_label_singular: campaign.point_label_singular ?? '',
    point_label_plural: campaign.point_label_plural ?? '',
    value: dollars(campaign.value_amount),
    cohort_code: campaign.cohort_code ?? '',
    max_claims: digits(campaign.max_claims),
    requires_opt_in: campaign.requires_opt_in,
    locked: campaign.locked,
    opens_at: localUtc(campaign.opens_at),
    closes_at: localUtc(campaign.closes_at),
  };
}

/** What the person typed could not be read: by the API's field name, in words, shown beside that field. */
export type FieldProblems = Record<string, string>;

const MONEY = /^\$?\s*(\d{1,7})(?:\.(\d{1,2}))?$/;
/** Dollars as typed ("5", "5.5", "$5.00") in cents; empty: undefined; anything else: NaN. */
export function cents(typed: string): number | undefined {
  const text = typed.trim().replaceAll(',', '');
  if (text === '') return undefined;
  const match = MONEY.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** A whole number as typed; empty: undefined; anything else: NaN. */
export function count(typed: string): number | undefined {
  const text = typed.trim().replaceAll(',', '');
  if (text === '') return undefined;
  return /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
}

/** A `datetime-local` value read as UTC, as the API's ISO 8601 time. */
const utcInstant = (typed: string): string | undefined => (typed === '' ? undefined : `${typed.length === 16 ? `${typed}:00` : typed}Z`);

const needsItems = (draft: CampaignDraft) =>
  draft.kind === 'item' || draft.kind === 'item_gift_card' || (draft.kind === 'custom_progress' && draft.progress_type === 'item');
const isSpendKind = (kind: CampaignKind) => kind === 'spend' || kind === 'spend_gift_card';
const hasPeriod = (kind: CampaignKind) => kind === 'spend_gift_card' || kind === 'item_gift_card';
const earnsPerRequirement = (kind: CampaignKind) => kind !== 'custom_progress' && kind !== 'value';

/** Which groups of fields the kind uses (the form shows only those). */
export const uses = {
  spend: (draft: CampaignDraft) => isSpendKind(draft.kind),
  itemCount: (draft: CampaignDraft) => draft.kind === 'item' || draft.kind === 'item_gift_card',
  itemRules: needsItems,
  itemNames: (draft: CampaignDraft) => draft.kind === 'item' || draft.kind === 'item_gift_card' || draft.kind === 'custom_progress',
  visits: (draft: CampaignDraft) => draft.kind === 'visit',
  period: (draft: CampaignDraft) => hasPeriod(draft.kind),
  earn: (draft: CampaignDraft) => earnsPerRequirement(draft.kind),
  goals: (draft: CampaignDraft) => draft.kind === 'custom_progress',
  value: (draft: CampaignDraft) => draft.kind === 'value',
};

/**
 * The create request from the form: only the fields the kind uses, amounts in cents. What cannot be read (letters in
 * an amount) is a problem named by the API's field, so it shows beside the field as the API's own 422s do; what is
 * missing is left out, and the API says what the kind requires.
 */
export function createBody(draft: CampaignDraft): { body: CreateBody; problems: FieldProblems } {
  const problems: FieldProblems = {};
  const money = (field: string, typed: string) => {
    const value = cents(typed);
    if (Number.isNaN(value)) problems[field] = 'Enter an amount in dollars, like 5.00.';
    return value !== undefined && !Number.isNaN(value) ? value : undefined;
  };
  const whole = (field: string, typed: string) => {
    const value = count(typed);
    if (Number.isNaN(value)) problems[field] = 'Enter a whole number, like 5.';
    return value !== undefined && !Number.isNaN(value) ? value : undefined;
  };
  const body: CreateBody = { kind: draft.kind, title: draft.title };
  const set = <Field extends keyof CreateBody>(field: Field, value: CreateBody[Field] | undefined) => {
    if (value !== undefined) body[field] = value;
  };
  set('description', draft.description.trim() === '' ? undefined : draft.description);
  set('reward_title', draft.reward_title.trim() === '' ? undefined : draft.reward_title);
  set('opens_at', utcInstant(draft.opens_at));
  set('closes_at', utcInstant(draft.closes_at));
  if (draft.requires_opt_in) body.requires_opt_in = true;
  if (draft.locked) body.locked = true;
  set('cohort_code', draft.cohort_code.trim() === '' ? undefined : draft.cohort_code.trim());
  if (uses.spend(draft)) set('required_spend_amount', money('required_spend_amount', draft.required_spend));
  if (uses.itemCount(draft)) set('required_item_count', whole('required_item_count', draft.required_item_count));
  if (uses.visits(draft)) {
    set('required_visit_count', whole('required_visit_count', draft.required_visit_count));
    set('qualifying_order_spend_amount', money('qualifying_order_spend_amount', draft.qualifying_order_spend));
  }
  if (uses.period(draft)) set('progress_period_days', whole('progress_period_days', draft.progress_period_days));
  if (uses.earn(draft)) set('earn_amount', money('earn_amount', draft.earn));
  if (uses.itemRules(draft)) body.item_rules = draft.item_rules.filter((rule) => rule.value.trim() !== '').map((rule) => ({ ...rule }));
  if (uses.itemNames(draft)) {
    set('required_item_singular', draft.required_item_singular);
    set('required_item_plural', draft.required_item_plural);
    set('reward_article', draft.reward_article);
  }
  if (uses.goals(draft)) {
    body.progress_type = draft.progress_type;
    set('point_label_singular', draft.point_label_singular.trim() === '' ? undefined : draft.point_label_singular);
    set('point_label_plural', draft.point_label_plural.trim() === '' ? undefined : draft.point_label_plural);
    body.goals = draft.goals.map((goal, index) => {
      const required =
        draft.progress_type === 'item'
          ? whole(`goals.${index}.progress_required`, goal.progress_required)
          : money(`goals.${index}.progress_required`, goal.progress_required);
      const earn = money(`goals.${index}.earn_amount`, goal.earn);
      return {
        title: goal.title,
        ...(goal.description.trim() === '' ? {} : { description: goal.description }),
        // 0 when not typed: the API then says the goal needs a requirement.
        progress_required: required ?? 0,
        ...(earn === undefined ? {} : { earn_amount: earn }),
      };
    });
  }
  if (uses.value(draft)) {
    set('value_amount', money('value_amount', draft.value));
    set('max_claims', whole('max_claims', draft.max_claims));
  }
  return { body, problems };
}

/** The edit request: only the editable fields that differ from the saved campaign (an empty body: nothing changed). */
export function updateBody(draft: CampaignDraft, campaign: Campaign): UpdateBody {
  const body: UpdateBody = {};
  const saved = draftOf(campaign);
  for (const field of ['title', 'description', 'reward_title', 'reward_article', 'required_item_singular', 'required_item_plural'] as const) {
    if (draft[field] !== saved[field]) body[field] = draft[field];
  }
  for (const field of ['point_label_singular', 'point_label_plural'] as const) {
    if (draft[field] !== saved[field]) body[field] = draft[field].trim() === '' ? null : draft[field];
  }
  if (draft.closes_at !== saved.closes_at) body.closes_at = utcInstant(draft.closes_at) ?? null;
  return body;
}

// ---- What a customer sees: the app-facing representations (GET /v15/campaigns/{id}/{representation_type}) ----

type Representations = {
  spend_based_loyalty_v1: components['schemas']['CampaignSpendBasedLoyaltyV1'];
  visit_based_loyalty_v1: components['schemas']['CampaignVisitBasedLoyaltyV1'];
  item_based_loyalty_v1: components['schemas']['CampaignItemBasedLoyaltyV1'];
  item_based_gift_card_loyalty_v1: components['schemas']['CampaignItemBasedGiftCardLoyaltyV1'];
  spend_based_gift_card_loyalty_v1: components['schemas']['CampaignSpendBasedGiftCardLoyaltyV1'];
  custom_progress_based_v1: components['schemas']['CampaignCustomProgressBasedV1'];
};
type LoyaltyRepresentation = { [Type in keyof Representations]: { type: Type; campaign: Representations[Type] } }[keyof Representations];

/**
 * A campaign as the app receives it: `basic_v1` (every kind) and the kind's loyalty representation, with an example
 * customer's progress; a value campaign has only `basic_v1`, and its offer is the rewards list's `value_amount`
 * (`GET /v15/merchants/{merchant_id}/rewards`, `campaign-<id>`). The preview draws only from these fields, so it
 * shows what the app can show; the opt-in and lock notes come from the campaign, which decides who sees it.
 */
export interface AppView {
  basic_v1: components['schemas']['CampaignBasicV1'];
  loyalty: LoyaltyRepresentation | undefined;
  offer_value_amount: number | undefined;
  cohort_code: string | undefined;
  requires_opt_in: boolean;
  locked: boolean;
}

/** The example customer is this far along (a share of the requirement, or of the first goal). */
export const EXAMPLE_SHARE = 0.6;
const DAY_MS = 86_400_000;

/** The draft as the app's representations would carry it (unreadable amounts as 0, so the preview keeps its shape). */
export function appViewOf(draft: CampaignDraft, now: number): AppView {
  const money = (typed: string) => {
    const value = cents(typed);
    return value === undefined || Number.isNaN(value) ? 0 : value;
  };
  const whole = (typed: string) => {
    const value = count(typed);
    return value === undefined || Number.isNaN(value) ? 0 : value;
  };
  const example = (requirement: number) => Math.floor(requirement * EXAMPLE_SHARE);
  const period = (days: number) => ({
    progress_period_starts_at: new Date(now).toISOString(),
    progress_period_resets_at: days > 0 ? new Date(now + days * DAY_MS).toISOString() : null,
  });
  const rewardTitle = draft.reward_title.trim() === '' ? draft.title : draft.reward_title;
  // The item kinds' goal and how they name the items and the reward ("buy 5 coffees, get a free coffee").
  const itemCount = whole(draft.required_item_count);
  const itemGoal = {
    progress_item_count: example(itemCount),
    required_item_count: itemCount,
    required_item_singular: draft.required_item_singular,
    required_item_plural: draft.required_item_plural,
    reward_article: draft.reward_article,
    reward_title: rewardTitle,
  };
  // The gift-card kinds carry their own name and message, and their period.
  const giftCardFacts = { title: draft.title, description: draft.description, ...period(whole(draft.progress_period_days)) };
  const earn = money(draft.earn);
  let loyalty: LoyaltyRepresentation | undefined;
  switch (draft.kind) {
    case 'spend': {
      const required = money(draft.required_spend);
      loyalty = { type: 'spend_based_loyalty_v1', campaign: { earn_amount: earn, progress_amount: example(required), required_spend_amount: required } };
      break;
    }
    case 'visit': {
      const required = whole(draft.required_visit_count);
      loyalty = {
        type: 'visit_based_loyalty_v1',
        campaign: {
          earn_amount: earn,
          progress_visit_count: example(required),
          required_visit_count: required,
          qualifying_order_spend_amount: money(draft.qualifying_order_spend),
        },
      };
      break;
    }
    case 'item':
      loyalty = { type: 'item_based_loyalty_v1', campaign: itemGoal };
      break;
    case 'item_gift_card':
      loyalty = { type: 'item_based_gift_card_loyalty_v1', campaign: { ...giftCardFacts, ...itemGoal } };
      break;
    case 'spend_gift_card': {
      const required = money(draft.required_spend);
      loyalty = {
        type: 'spend_based_gift_card_loyalty_v1',
        campaign: {
          currency: 'USD',
          ...giftCardFacts,
          progress_amount: example(required),
          earn_amount: earn,
          required_spend_amount: required,
          reward_article: draft.reward_article,
          reward_title: rewardTitle,
        },
      };
      break;
    }
    case 'custom_progress': {
      const required = draft.goals.map((goal) => (draft.progress_type === 'item' ? whole(goal.progress_required) : money(goal.progress_required)));
      const progress = example(required[0] ?? 0);
      loyalty = {
        type: 'custom_progress_based_v1',
        campaign: {
          id: 0,
          title: draft.title,
          description: draft.description,
          closes_at: utcInstant(draft.closes_at) ?? null,
          opens_at: utcInstant(draft.opens_at) ?? new Date(now).toISOString(),
          currency: 'USD',
          current_progress: progress,
          image: null,
          opted_in: draft.requires_opt_in ? false : null,
          point_label_singular: draft.point_label_singular.trim() === '' ? null : draft.point_label_singular,
          point_label_plural: draft.point_label_plural.trim() === '' ? null : draft.point_label_plural,
          progress_type: draft.progress_type,
          qualifying_order_spend_amount: null,
          required_item_singular: draft.required_item_singular,
          required_item_plural: draft.required_item_plural,
          requires_opt_in: draft.requires_opt_in,
          goals: draft.goals.map((goal, index) => ({
            goal: {
              id: index,
              title: goal.title,
              description: goal.description,
              image: null,
              progress_required: required[index] ?? 0,
              accomplished: progress >= (required[index] ?? 0) && (required[index] ?? 0) > 0,
            },
          })),
        },
      };
      break;
    }
    case 'value':
      loyalty = undefined;
  }
  return {
    basic_v1: { title: draft.title, description: draft.description },
    loyalty,
    offer_value_amount: draft.kind === 'value' ? money(draft.value) : undefined,
    cohort_code: draft.cohort_code.trim() === '' ? undefined : draft.cohort_code.trim().toUpperCase(),
    requires_opt_in: draft.requires_opt_in,
    locked: draft.locked,
  };
}

const plural = (quantity: number, singular: string, plural: string) => `${quantity.toLocaleString()} ${quantity === 1 ? singular : plural}`;
const days = (from: string | null, to: string | null) => (from && to ? Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) : 0);

/** The goal and reward in words, the progress bar's numbers and its words, as the app would put them. */
export interface CustomerWords {
  goal: string;
  progress: { value: number; max: number; words: string } | undefined;
  goals: { title: string; description: string; words: string }[];
}

export function customerWords(view: AppView): CustomerWords {
  const loyalty = view.loyalty;
  if (!loyalty) {
    const code = view.cohort_code ? ` with the code ${view.cohort_code}` : '';
    return { goal: `Claim ${formatMoney(view.offer_value_amount ?? 0)} of credit${code}.`, progress: undefined, goals: [] };
  }
  switch (loyalty.type) {
    case 'spend_based_loyalty_v1': {
      const { earn_amount, progress_amount, required_spend_amount } = loyalty.campaign;
      const required = required_spend_amount ?? 0;
      return {
        goal: `Spend ${formatMoney(required)}, get ${formatMoney(earn_amount)} of credit.`,
        progress: { value: progress_amount, max: required, words: `${formatMoney(progress_amount)} of ${formatMoney(required)} spent` },
        goals: [],
      };
    }
    case 'visit_based_loyalty_v1': {
      const { earn_amount, progress_visit_count, required_visit_count, qualifying_order_spend_amount } = loyalty.campaign;
      const required = required_visit_count ?? 0;
      const qualifying = qualifying_order_spend_amount > 0 ? ` Each order of ${formatMoney(qualifying_order_spend_amount)} or more is a visit.` : '';
      return {
        goal: `Visit ${plural(required, 'time', 'times')}, get ${formatMoney(earn_amount)} of credit.${qualifying}`,
        progress: { value: progress_visit_count, max: required, words: `${progress_visit_count} of ${plural(required, 'visit', 'visits')}` },
        goals: [],
      };
    }
    case 'item_based_loyalty_v1': {
      const { progress_item_count, required_item_count, required_item_singular, required_item_plural, reward_article, reward_title } = loyalty.campaign;
      const required = required_item_count ?? 0;
      return {
        goal: `Buy ${plural(required, required_item_singular, required_item_plural)}, get ${reward_article} ${reward_title}.`.replace(/\s+/g, ' '),
        progress: {
          value: progress_item_count,
          max: required,
          words: `${progress_item_count} of ${plural(required, required_item_singular, required_item_plural)}`,
        },
        goals: [],
      };
    }
    case 'item_based_gift_card_loyalty_v1': {
      const item = loyalty.campaign;
      const required = item.required_item_count ?? 0;
      const within = days(item.progress_period_starts_at, item.progress_period_resets_at);
      return {
        goal: `Buy ${plural(required, item.required_item_singular, item.required_item_plural)} within ${plural(within, 'day', 'days')}, get ${item.reward_article ?? ''} ${item.reward_title}.`.replace(
          /\s+/g,
          ' ',
        ),
        progress: {
          value: item.progress_item_count,
          max: required,
          words: `${item.progress_item_count} of ${plural(required, item.required_item_singular, item.required_item_plural)}, starts again after ${plural(within, 'day', 'days')}`,
        },
        goals: [],
      };
    }
    case 'spend_based_gift_card_loyalty_v1': {
      const spend = loyalty.campaign;
      const required = spend.required_spend_amount ?? 0;
      const within = days(spend.progress_period_starts_at, spend.progress_period_resets_at);
      return {
        goal: `Spend ${formatMoney(required)} within ${plural(within, 'day', 'days')}, get ${spend.reward_article ?? ''} ${spend.reward_title} (${formatMoney(spend.earn_amount)}).`.replace(
          /\s+/g,
          ' ',
        ),
        progress: {
          value: spend.progress_amount,
          max: required,
          words: `${formatMoney(spend.progress_amount)} of ${formatMoney(required)} spent, starts again after ${plural(within, 'day', 'days')}`,
        },
        goals: [],
      };
    }
    case 'custom_progress_based_v1': {
      const points = loyalty.campaign;
      const unit = (quantity: number) =>
        points.progress_type === 'spend' && !points.point_label_plural
          ? formatMoney(quantity)
          : plural(
              quantity,
              points.point_label_singular ?? (points.progress_type === 'item' ? points.required_item_singular : 'point'),
              points.point_label_plural ?? (points.progress_type === 'item' ? points.required_item_plural : 'points'),
            );
      const first = points.goals[0]?.goal.progress_required ?? 0;
      return {
        goal:
          points.progress_type === 'item' ? 'Every item you buy brings you closer to these goals.' : 'Everything you spend brings you closer to these goals.',
        progress: { value: points.current_progress, max: first, words: `${unit(points.current_progress)} of ${unit(first)} for the first goal` },
        goals: points.goals.map(({ goal }) => ({ title: goal.title, description: goal.description, words: `at ${unit(goal.progress_required)}` })),
      };
    }
  }
}

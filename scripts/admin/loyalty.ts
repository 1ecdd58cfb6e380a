/**
 * Loyalty commands of `npm run admin` (registered in scripts/admin.ts):
 * - create-campaign: any campaign kind (docs/loyalty.md lists the kinds and their fields), through the same domain
 *   call as the management route (the loyalty engine's createCampaign) with the same audit entry, by the operators.
 *   Kept: legacy campaigns are the operators' only, and a merchant without an owner yet still gets its campaigns;
 * - import-legacy-cards: the cards of an older loyalty program that users migrate with
 *   POST /v15/loyalties/legacy/:campaign_id/claims.
 */
import { readFileSync } from 'node:fs';
import { CommandError, UsageError, integerOption, optionsOf, stringOption, withPlainErrors, type AdminCommand } from './options.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { CAMPAIGN_KINDS, CampaignInputError, createCampaign, type CampaignInput, type CampaignKind, type ItemRule } from '#shared/domain/loyalty/campaigns.ts';
import { importLegacyCards } from '#shared/domain/loyalty/claims.ts';
import { OPERATOR_AUDIT } from '#shared/domain/audit/audit-log.ts';
import { campaignCreatedItems } from '#shared/domain/campaigns/management.ts';

function jsonOption(values: Record<string, unknown>, name: string): Record<string, unknown> {
  const raw = stringOption(values as never, name);
  if (raw === undefined) return {};
  try {
    const parsed = JSON.parse(raw.trim().startsWith('{') ? raw : readFileSync(raw, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--${name} takes a JSON object or a file holding one (${(error as Error).message})`);
  }
}

/** `sku:COFFEE-12,category:Coffee,name:Bagel` */
function itemRulesOption(value: string | undefined): ItemRule[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((entry) => {
    const [field, ...rest] = entry.split(':');
    const ruleValue = rest.join(':').trim();
    if (!['sku', 'category', 'name'].includes(field?.trim() ?? '') || ruleValue === '')
      throw new UsageError(`--item-rules entries look like sku:VALUE, category:VALUE or name:VALUE; not "${entry}"`);
    return { field: field!.trim() as ItemRule['field'], value: ruleValue };
  });
}

const REQUIRED_FIELD: Partial<Record<CampaignKind, 'required_spend_amount' | 'required_item_count' | 'required_visit_count'>> = {
  spend: 'required_spend_amount',
  spend_gift_card: 'required_spend_amount',
  item: 'required_item_count',
  item_gift_card: 'required_item_count',
  visit: 'required_visit_count',
};

export const createCampaignCommand: AdminCommand = {
  summary:
    "Create a loyalty campaign of any kind (legacy ones only here; a merchant's owner creates the others through POST /v15/merchants/{merchant_id}/campaigns, docs/merchant-api.md).",
  usage: [
    `--merchant-id <id> --kind ${CAMPAIGN_KINDS.join('|')} --title <text> [--description <text>]`,
    '        [--required <amount|count>] [--earn-amount <cents>] [--value-amount <cents>] [--item-rules sku:X,category:Y,name:Z]',
    '        [--qualifying-order-spend-amount <cents>] [--period-days <days>] [--cohort-code <code>] [--max-claims <n>]',
    '        [--opens-at <ISO 8601>] [--closes-at <ISO 8601>] [--locked] [--requires-opt-in]',
    '        [--app-id <id> --progress-campaign-id <id>] (legacy)   [--json \'{"goals": [...], ...}\' | --json <file.json>]',
    '        (--required is the spend, item or visit requirement of the kind; --json sets any other field, see docs/loyalty.md)',
  ].join('\n'),
  options: optionsOf(
    [
      'merchant-id',
      'kind',
      'title',
      'description',
      'required',
      'earn-amount',
      'value-amount',
      'item-rules',
      'qualifying-order-spend-amount',
      'period-days',
      'cohort-code',
      'max-claims',
      'opens-at',
      'closes-at',
      'app-id',
      'progress-campaign-id',
      'json',
    ],
    ['locked', 'requires-opt-in'],
  ),
  async run(values) {
    const kind = stringOption(values, 'kind', true) as CampaignKind;
    if (!CAMPAIGN_KINDS.includes(kind)) throw new UsageError(`--kind takes ${CAMPAIGN_KINDS.join(', ')}; not ${kind}`);
    const merchantId = integerOption(values, 'merchant-id', true);
    if (!(await getMerchant(merchantId))) throw new CommandError(`Merchant ${merchantId} does not exist`);
    const cents = (name: string) => {
      const value = stringOption(values, name);
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number of cents, not "${value}"`);
      return Number(value);
    };
    const input: Record<string, unknown> = {
      ...jsonOption(values, 'json'),
      merchant_id: merchantId,
      kind,
      title: stringOption(values, 'title', true),
    };
    const set = (field: string, value: unknown) => {
      if (value !== undefined) input[field] = value;
    };
    set('description', stringOption(values, 'description'));
    const requiredField = REQUIRED_FIELD[kind];
    if (requiredField) set(requiredField, integerOption(values, 'required'));
    else if (stringOption(values, 'required') !== undefined) throw new UsageError(`--required does not apply to ${kind} campaigns`);
    set('earn_amount', cents('earn-amount'));
    set('value_amount', cents('value-amount'));
    set('item_rules', itemRulesOption(stringOption(values, 'item-rules')));
    set('qualifying_order_spend_amount', cents('qualifying-order-spend-amount'));
    set('progress_period_days', integerOption(values, 'period-days'));
    set('cohort_code', stringOption(values, 'cohort-code'));
    set('max_claims', integerOption(values, 'max-claims'));
    set('opens_at', stringOption(values, 'opens-at'));
    set('closes_at', stringOption(values, 'closes-at'));
    if (values.locked === true) input.locked = true;
    if (values['requires-opt-in'] === true) input.requires_opt_in = true;
    set('app_id', integerOption(values, 'app-id'));
    set('progress_campaign_id', integerOption(values, 'progress-campaign-id'));
    // Logged as the operators' (the merchant's audit log shows who made each of its campaigns).
    return {
      campaign: await withPlainErrors(CampaignInputError, () =>
        createCampaign(input as CampaignInput, (campaign) => campaignCreatedItems(OPERATOR_AUDIT, campaign)),
      ),
    };
  },
};

/**
 * Cards as JSON (`[{"legacy_id", "value_amount", "progress_amount"?, "email"?}]`) or CSV
 * (`legacy_id,value_amount[,progress_amount[,email]]`, optional header). A card with an email is claimable only by the user with that email.
 */
function parseCards(text: string): { legacy_id: string; value_amount: number; progress_amount?: number; email?: string | null }[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as { legacy_id: string; value_amount: number; progress_amount?: number; email?: string | null }[];
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.split(',').map((cell) => cell.trim()))
    .filter((cells) => cells[0] !== '' && cells[0] !== 'legacy_id')
    .map(([legacyId, value, progress, email]) => {
      if (!/^\d+$/.test(value ?? '') || (progress !== undefined && progress !== '' && !/^\d+$/.test(progress)))
        throw new CommandError(`Bad card line: ${legacyId},${value},${progress ?? ''}`);
      return { legacy_id: legacyId!, value_amount: Number(value), progress_amount: progress ? Number(progress) : 0, email: email || null };
    });
}

export const importLegacyCardsCommand: AdminCommand = {
  summary: 'Import legacy loyalty cards into a legacy campaign (cards already there are left alone).',
  usage: '--campaign-id <id> --file <cards.json|cards.csv>   (CSV: legacy_id,value_amount[,progress_amount[,email]])',
  options: optionsOf(['campaign-id', 'file']),
  async run(values) {
    const campaignId = integerOption(values, 'campaign-id', true);
    const file = stringOption(values, 'file', true);
    let cards;
    try {
      cards = parseCards(readFileSync(file, 'utf8'));
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    try {
      return { campaign_id: campaignId, ...(await importLegacyCards(campaignId, cards)) };
    } catch (error) {
      throw new CommandError((error as Error).message);
    }
  },
};

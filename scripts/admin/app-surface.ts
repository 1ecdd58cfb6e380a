/**
 * App-surface commands of `npm run admin` (registered in scripts/admin.ts):
 * - set-interstitial: the screen a merchant's orders show afterwards (GET /v15/orders/:uuid/interstitial);
 * - list-tickets: the support tickets users sent (POST /v14/tickets), newest first;
 * - backfill-location-changes: once, the location change feed (GET /v14/locations) for locations created
 *   before it existed.
 */
import { readFileSync } from 'node:fs';
import { CommandError, UsageError, integerOption, optionsOf, stringOption, withPlainErrors, type AdminCommand } from './options.ts';
import { getMerchant } from '#shared/domain/merchants/merchants.ts';
import { InterstitialInputError, setInterstitial } from '#shared/domain/app-surface/interstitials.ts';
import { listTickets } from '#shared/domain/app-surface/tickets.ts';
import { backfillLocationChanges } from '#shared/domain/app-surface/location-summaries.ts';
import { INTERSTITIAL_TYPES, type InterstitialType, type ShareAction } from '#shared/schemas/app-surface.ts';

function shareOption(raw: string | undefined): Partial<ShareAction> | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw.trim().startsWith('{') ? raw : readFileSync(raw, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed;
  } catch (error) {
    throw new UsageError(`--share takes a JSON object or a file holding one (${(error as Error).message})`);
  }
}

export const setInterstitialCommand: AdminCommand = {
  summary: "Set the screen a merchant's orders show afterwards (claim, feedback, share, url or no_action).",
  usage: [
    `--merchant-id <id> --type ${INTERSTITIAL_TYPES.join('|')} --title <text> [--description-html <html>] [--callout-text <text>]`,
    '        [--campaign-id <id>] (claim: the campaign whose cohort code is offered; any type: the campaign image is shown)',
    '        [--question-text <text>] (feedback)   [--url <https URL> --button-text <text>] (url)',
    '        [--share \'{"message_for_email_subject": ..., "share_url_twitter": ...}\' | --share <file.json>] (share)',
  ].join('\n'),
  options: optionsOf(['merchant-id', 'type', 'title', 'description-html', 'callout-text', 'campaign-id', 'question-text', 'url', 'button-text', 'share']),
  async run(values) {
    const merchantId = integerOption(values, 'merchant-id', true);
    const type = stringOption(values, 'type', true);
    if (!(INTERSTITIAL_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${INTERSTITIAL_TYPES.join(', ')}`);
    if (!(await getMerchant(merchantId))) throw new CommandError(`merchant ${merchantId} does not exist`);
    const interstitial = await withPlainErrors(InterstitialInputError, () =>
      setInterstitial({
        merchantId,
        type: type as InterstitialType,
        title: stringOption(values, 'title', true),
        descriptionHtml: stringOption(values, 'description-html'),
        calloutText: stringOption(values, 'callout-text'),
        campaignId: integerOption(values, 'campaign-id'),
        questionText: stringOption(values, 'question-text'),
        url: stringOption(values, 'url'),
        buttonText: stringOption(values, 'button-text'),
        share: shareOption(stringOption(values, 'share')),
      }),
    );
    return { interstitial };
  },
};

export const listTicketsCommand: AdminCommand = {
  summary: 'List the support tickets users sent from their apps, newest first.',
  usage: '[--limit <n>] (default 50, at most 1000)',
  options: optionsOf(['limit']),
  async run(values) {
    const limit = integerOption(values, 'limit') ?? 50;
    if (limit > 1000) throw new UsageError('--limit is at most 1000');
    return { tickets: await listTickets(limit) };
  },
};

export const backfillLocationChangesCommand: AdminCommand = {
  summary:
    'Write the change-feed row (GET /v14/locations) of every location created before the feed existed (run once before deploying it to a table with locations; idempotent).',
  run: async () => backfillLocationChanges(),
};

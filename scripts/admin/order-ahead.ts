/**
 * Admin commands of order ahead:
 *   npm run admin -- create-menu --location-id <id> --file menu.json
 *   npm run admin -- create-upsell --location-id <id> --file upsell.json   (or --prompt/--item-ids/...)
 * The menu JSON is described in docs/order-ahead.md ("Menu file"); create-menu replaces the whole menu.
 */
import { readFileSync } from 'node:fs';
import { addUpsell, createMenuForLocation } from '#shared/domain/order-ahead/menu.ts';
import { serializeMenu } from '#shared/domain/order-ahead/menu-view.ts';
import { CommandError, UsageError, integerListOption, integerOption, optionsOf, stringOption, type AdminCommand, type OptionValues } from './options.ts';
import * as z from '#shared/schemas/zod.ts';

function readJsonFile(values: OptionValues): unknown {
  const file = stringOption(values, 'file', true);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Domain errors as one plain message per problem. */
async function plainErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof z.core.$ZodError)
      throw new CommandError(error.issues.map((issue) => `${issue.path.join('.') || 'menu'}: ${issue.message}`).join('\n'));
    if (error instanceof Error && /does not exist|no order-ahead menu|Unknown menu items|kept changing|holds at most/.test(error.message))
      throw new CommandError(error.message);
    throw error;
  }
}

export const createMenuCommand: AdminCommand = {
  summary: "Publish a location's order-ahead menu from a JSON file (replaces the current menu).",
  usage: '--location-id <id> --file <menu.json>',
  options: optionsOf(['location-id', 'file']),
  async run(values) {
    const locationId = integerOption(values, 'location-id', true);
    const input = readJsonFile(values);
    const menu = await plainErrors(() => createMenuForLocation(locationId, input));
    // URLs as the local API serves them unless PUBLIC_BASE_URL names the deployed one.
    return { ...serializeMenu(menu, process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000'), upsells: menu.upsells };
  },
};

export const createUpsellCommand: AdminCommand = {
  summary: "Add an upsell to a location's order-ahead menu.",
  usage: [
    '--location-id <id> (--file <upsell.json> | --prompt <text> --item-ids <id,id>',
    '        [--trigger-item-ids <id,id>] [--segment everyone|new_customers|min_orders:<n>] [--hide-prices] [--window HH:MM-HH:MM])',
  ].join('\n'),
  options: optionsOf(['location-id', 'file', 'prompt', 'item-ids', 'trigger-item-ids', 'segment', 'window'], ['hide-prices']),
  async run(values) {
    const locationId = integerOption(values, 'location-id', true);
    let input: unknown;
    if (stringOption(values, 'file')) input = readJsonFile(values);
    else {
      const segmentText = stringOption(values, 'segment') ?? 'everyone';
      const minOrders = /^min_orders:(\d+)$/.exec(segmentText);
      if (!minOrders && segmentText !== 'everyone' && segmentText !== 'new_customers')
        throw new UsageError('--segment is everyone, new_customers or min_orders:<n>');
      const window = stringOption(values, 'window');
      const windowMatch = window ? /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(window) : null;
      if (window && !windowMatch) throw new UsageError('--window is HH:MM-HH:MM in the location time zone');
      input = {
        prompt: stringOption(values, 'prompt', true),
        item_ids: integerListOption(values, 'item-ids') ?? [],
        trigger_item_ids: integerListOption(values, 'trigger-item-ids') ?? [],
        segment: minOrders ? { kind: 'min_orders', min_orders: Number(minOrders[1]) } : { kind: segmentText },
        show_prices: values['hide-prices'] !== true,
        time_windows: windowMatch ? [{ start: windowMatch[1], end: windowMatch[2] }] : [],
      };
    }
    return { upsell: await plainErrors(() => addUpsell(locationId, input)) };
  },
};

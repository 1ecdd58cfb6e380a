/**
 * `npm run admin -- <command> [options]`: the operators' CLI for what only the platform does (apps, merchants and
 * their first owner, tokens, charge limits, audits). It writes through the same domain library as the API. What a
 * merchant now does itself through the management API (locations, campaigns) stays here for the operators, through
 * the same domain calls as those routes and logged in the merchant's audit log as the operators'
 * (docs/merchant-api.md, "Operators' CLI").
 *
 * Which table:
 * - `--local`: the `npm start` stack's table (.local/settings.json says where it is; when the stack
 *   is not running, DynamoDB Local is started on .local/dynamodb for the command).
 * - `TABLE_NAME=<table>` with the usual AWS credentials and region: a deployed table.
 * - `DYNAMODB_ENDPOINT=<url> TABLE_NAME=<table>`: any other DynamoDB Local table (the tests do this).
 *
 * Each command prints its result as JSON on stdout. Exit codes: 0 ok, 1 failed, 2 usage error.
 *
 * Other areas register commands with ONE line in `commands` below, pointing at an AdminCommand
 * exported from their own module; the command type and option helpers are in scripts/admin/options.ts.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ApiError } from '#shared/errors.ts';
import { MERCHANT_PERMISSIONS, USER_PERMISSIONS, type Permission } from '#shared/routes.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { createApp, getApp, rotateClientSecret } from '#shared/domain/identity/apps.ts';
import { createMerchant, getMerchant, UsernameTakenError } from '#shared/domain/merchants/merchants.ts';
import { createUser, getUser } from '#shared/domain/identity/users.ts';
import { LocationInputError, createLocation, parseHoursSpec, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { locationCreatedItems } from '#shared/domain/merchants/location-settings.ts';
import { OPERATOR_AUDIT } from '#shared/domain/audit/audit-log.ts';
import { FULFILLMENT_TYPES, type FulfillmentType } from '#shared/schemas/locations.ts';
import {
  CommandError,
  UsageError,
  withPlainErrors,
  integerListOption,
  integerOption,
  optionsOf,
  listOption,
  numberOption,
  stringOption,
  type AdminCommand,
  type OptionValues,
} from './admin/options.ts';

// ---------------------------------------------------------------------------------------------
// Commands

const createAppCommand: AdminCommand = {
  summary: 'Create an app and print its API key and client secret (shown once; stored only hashed).',
  usage: '--name <name> [--global | --merchant-ids <id,id,...>] [--callback-url <https URL for accepted permissions requests>]',
  options: optionsOf(['name', 'merchant-ids', 'callback-url'], ['global']),
  async run(values) {
    const name = stringOption(values, 'name', true);
    const global = values.global === true;
    const merchantIds = integerListOption(values, 'merchant-ids') ?? [];
    if (global && merchantIds.length > 0) throw new UsageError('--merchant-ids is for an app that is not --global (a global app lists every merchant)');
    const callbackUrl = stringOption(values, 'callback-url');
    if (callbackUrl !== undefined && !callbackUrlAllowed(callbackUrl, values.local === true)) {
      throw new UsageError('--callback-url must be an https URL (plain http only with --local, for a callback on this machine)');
    }
    for (const merchantId of merchantIds) {
      if (!(await getMerchant(merchantId))) throw new CommandError(`Merchant ${merchantId} does not exist`);
    }
    const { app, apiKey, clientSecret } = await createApp({ name, global, merchantIds, callbackUrl });
    return { app, api_key: apiKey, client_secret: clientSecret };
  },
};

const rotateAppSecretCommand: AdminCommand = {
  summary: "Give an app a new client secret (shown once); the old one and the app's tokens stop working.",
  usage: "--api-key <the app's API key>",
  options: optionsOf(['api-key']),
  async run(values) {
    const rotated = await rotateClientSecret(stringOption(values, 'api-key', true));
    if (!rotated) throw new CommandError('No app has that API key');
    return { app_id: rotated.appId, client_secret: rotated.clientSecret };
  },
};

/** Accepted permissions requests POST a user token to this URL: https only, but for the local stack. */
function callbackUrlAllowed(url: string, local: boolean): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || (local && protocol === 'http:');
  } catch {
    return false;
  }
}

const createMerchantCommand: AdminCommand = {
  summary: 'Create a merchant and its login.',
  usage: '--name <name> --username <login> --password <password> [--manager-confirmation <code>] [--description-html <html>]',
  options: optionsOf(['name', 'username', 'password', 'manager-confirmation', 'description-html']),
  async run(values) {
    const username = stringOption(values, 'username', true);
    const merchant = await withPlainErrors(UsernameTakenError, () =>
      createMerchant({
        name: stringOption(values, 'name', true),
        username,
        password: stringOption(values, 'password', true),
        managerConfirmation: stringOption(values, 'manager-confirmation') ?? null,
        descriptionHtml: stringOption(values, 'description-html'),
      }),
    );
    return { merchant };
  },
};

const createLocationCommand: AdminCommand = {
  summary: "Create a location of a merchant (as the operators; a merchant's owner does it through POST /v15/merchants/{merchant_id}/locations).",
  usage: [
    '--merchant-id <id> --street-address <text> --locality <city> --region <state> --postal-code <code>',
    '        --lat <latitude> --lng <longitude> --time-zone <IANA name> [--name <text>] [--extended-address <text>]',
    `        [--fulfillment-types ${FULFILLMENT_TYPES.join(',')}] [--delivery-radius-m <meters>]`,
    '        [--hours "mon-fri 07:00-19:00; sat,sun 08:00-17:00"] [--categories <id,id>] [--hidden]',
  ].join('\n'),
  options: optionsOf(
    [
      'merchant-id',
      'name',
      'street-address',
      'extended-address',
      'locality',
      'region',
      'postal-code',
      'lat',
      'lng',
      'time-zone',
      'fulfillment-types',
      'delivery-radius-m',
      'hours',
      'categories',
    ],
    ['hidden'],
  ),
  async run(values) {
    const fulfillmentTypes = listOption(values, 'fulfillment-types') ?? ['in_store'];
    const unknown = fulfillmentTypes.filter((type) => !(FULFILLMENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) throw new UsageError(`--fulfillment-types takes ${FULFILLMENT_TYPES.join(', ')}; not ${unknown.join(', ')}`);
    const input = {
      merchant_id: integerOption(values, 'merchant-id', true),
      name: stringOption(values, 'name') ?? null,
      street_address: stringOption(values, 'street-address', true),
      extended_address: stringOption(values, 'extended-address') ?? '',
      locality: stringOption(values, 'locality', true),
      region: stringOption(values, 'region', true),
      postal_code: stringOption(values, 'postal-code', true),
      latitude: numberOption(values, 'lat', true),
      longitude: numberOption(values, 'lng', true),
      time_zone: stringOption(values, 'time-zone', true),
      fulfillment_types: fulfillmentTypes as FulfillmentType[],
      delivery_radius_m: numberOption(values, 'delivery-radius-m') ?? null,
      categories: integerListOption(values, 'categories') ?? [],
      shown: values.hidden !== true,
    };
    // Logged as the operators' (the merchant's audit log shows who made each of its locations).
    const alongside = (location: LocationItem) => locationCreatedItems(OPERATOR_AUDIT, location);
    return {
      location: await withPlainErrors(LocationInputError, () =>
        createLocation({ ...input, hours: parseHoursSpec(stringOption(values, 'hours') ?? '') }, { alongside }),
      ),
    };
  },
};

const createUserCommand: AdminCommand = {
  summary: 'Create a user of an app.',
  usage: '--app-id <id> --email <email> --password <password> [--first-name <name>] [--last-name <name>]',
  options: optionsOf(['app-id', 'email', 'password', 'first-name', 'last-name']),
  async run(values) {
    const appId = integerOption(values, 'app-id', true);
    if (!(await getApp(appId))) throw new CommandError(`App ${appId} does not exist`);
    const user = await createUser(appId, {
      email: stringOption(values, 'email', true),
      password: stringOption(values, 'password', true),
      first_name: stringOption(values, 'first-name') ?? '',
      last_name: stringOption(values, 'last-name') ?? '',
    });
    return {
      user: { id: user.user_id, email: user.email, first_name: user.first_name, last_name: user.last_name, payment_token_data: user.payment_token_data },
    };
  },
};

function permissionsOption(values: OptionValues, allowed: readonly Permission[], kind: string): Permission[] {
  const requested = listOption(values, 'permissions');
  if (!requested) return [...allowed];
  const invalid = requested.filter((permission) => !(allowed as readonly string[]).includes(permission));
  if (invalid.length > 0) throw new UsageError(`--permissions for a ${kind} token take ${allowed.join(', ')}; not ${invalid.join(', ')}`);
  return requested as Permission[];
}

const createTokenCommand: AdminCommand = {
  summary: 'Issue an access token for a user or a merchant and print it (shown once).',
  usage:
    '(--user-id <id> [--app-id <id>] | --merchant-id <id> --app-id <id>) [--permissions <name,name>] [--limited]\n        (--limited: a user token that may not change the account itself, like a downgraded one)',
  options: optionsOf(['user-id', 'merchant-id', 'app-id', 'permissions'], ['limited']),
  async run(values) {
    const userId = integerOption(values, 'user-id');
    const merchantId = integerOption(values, 'merchant-id');
    if ((userId === undefined) === (merchantId === undefined)) throw new UsageError('Give exactly one of --user-id and --merchant-id');
    if (userId !== undefined) {
      const user = await getUser(userId);
      if (!user) throw new CommandError(`User ${userId} does not exist`);
      const appId = integerOption(values, 'app-id') ?? user.created_app_id;
      if (!(await getApp(appId))) throw new CommandError(`App ${appId} does not exist`);
      const permissions = permissionsOption(values, USER_PERMISSIONS, 'user');
      const unlimited = values.limited !== true;
      const token = await issueToken({ subject: 'user', userId, appId, permissions, unlimited });
      return { token, subject: 'user', user_id: userId, app_id: appId, permissions, unlimited };
    }
    const appId = integerOption(values, 'app-id', true);
    if (!(await getMerchant(merchantId!))) throw new CommandError(`Merchant ${merchantId} does not exist`);
    if (!(await getApp(appId))) throw new CommandError(`App ${appId} does not exist`);
    const permissions = permissionsOption(values, MERCHANT_PERMISSIONS, 'merchant');
    const token = await issueToken({ subject: 'merchant', merchantId: merchantId!, appId, permissions });
    return { token, subject: 'merchant', merchant_id: merchantId, app_id: appId, permissions };
  },
};

/**
 * Every command. Other areas: add ONE line for a command exported from your own module, e.g.
 *   audit: () => import('./admin/audit.ts').then((module) => module.auditCommand),
 */
const commands: Record<string, AdminCommand | (() => Promise<AdminCommand>)> = {
  'create-app': createAppCommand,
  'rotate-app-secret': rotateAppSecretCommand,
  'create-merchant': createMerchantCommand,
  'create-location': createLocationCommand,
  'create-user': createUserCommand,
  'create-token': createTokenCommand,
  'create-campaign': () => import('./admin/loyalty.ts').then((module) => module.createCampaignCommand),
  'import-legacy-cards': () => import('./admin/loyalty.ts').then((module) => module.importLegacyCardsCommand),
  audit: () => import('./admin/money.ts').then((module) => module.auditCommand),
  'ledger-migrate': () => import('./admin/money.ts').then((module) => module.ledgerMigrateCommand),
  'set-charge-limits': () => import('./admin/money.ts').then((module) => module.setChargeLimitsCommand),
  'set-credit-budget': () => import('./admin/money.ts').then((module) => module.setCreditBudgetCommand),
  'create-menu': () => import('./admin/order-ahead.ts').then((module) => module.createMenuCommand),
  'create-upsell': () => import('./admin/order-ahead.ts').then((module) => module.createUpsellCommand),
  'set-interstitial': () => import('./admin/app-surface.ts').then((module) => module.setInterstitialCommand),
  'list-tickets': () => import('./admin/app-surface.ts').then((module) => module.listTicketsCommand),
  'backfill-location-changes': () => import('./admin/app-surface.ts').then((module) => module.backfillLocationChangesCommand),
  'upload-image': () => import('./admin/images.ts').then((module) => module.uploadImageCommand),
  'shard-id-counters': () => import('./admin/ids.ts').then((module) => module.shardIdCountersCommand),
  'set-tip-preference': () => import('./admin/merchants.ts').then((module) => module.setTipPreferenceCommand),
  'link-location-menus': () => import('./admin/merchants.ts').then((module) => module.linkLocationMenusCommand),
  'gifts-return-unclaimed': () => import('./admin/money.ts').then((module) => module.giftsReturnUnclaimedCommand),
  'staff-add-owner': () => import('./admin/staff.ts').then((module) => module.staffAddOwnerCommand),
  'index-phones': () => import('./admin/phones.ts').then((module) => module.indexPhonesCommand),
};

async function loadCommand(name: string): Promise<AdminCommand | undefined> {
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  return typeof entry === 'function' ? entry() : entry;
}

// ---------------------------------------------------------------------------------------------
// Table selection and the main program

const root = fileURLToPath(new URL('..', import.meta.url));
const localDirectory = join(root, '.local');
const GLOBAL_OPTIONS: ParseArgsOptionsConfig = { local: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };

const TABLE_HELP = [
  'Choose the table:',
  '  --local                                     the `npm start` stack on this machine (.local/)',
  '  TABLE_NAME=<table> (+ AWS credentials)      a deployed table',
  '  DYNAMODB_ENDPOINT=<url> TABLE_NAME=<table>  another DynamoDB Local table',
].join('\n');

async function commandUsage(name: string, full = true): Promise<string> {
  const command = await loadCommand(name);
  if (!command) return '';
  const usage = `npm run admin -- ${name} ${command.usage ?? ''}`;
  return full ? `${usage}\n\n${command.summary}\n\n${TABLE_HELP}` : usage;
}

async function generalHelp(): Promise<string> {
  const lines = ['Usage: npm run admin -- <command> [options] [--local]', '', 'Commands:'];
  const width = Math.max(...Object.keys(commands).map((name) => name.length)) + 2;
  for (const name of Object.keys(commands)) {
    const command = await loadCommand(name);
    lines.push(`  ${name.padEnd(width)} ${command?.summary ?? ''}`);
  }
  lines.push('', "npm run admin -- <command> --help shows a command's options.", '', TABLE_HELP);
  return lines.join('\n');
}

async function endpointAnswers(endpoint: string): Promise<boolean> {
  const { localClient } = await import('./local/dynamodb-local.ts');
  const client = localClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** Points the domain library at the chosen table; returns a cleanup (stops a DynamoDB Local it started). */
async function chooseTable(local: boolean): Promise<() => Promise<void>> {
  if (local) {
    const settingsFile = join(localDirectory, 'settings.json');
    const settings = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as { dynamodb_endpoint?: string; table_name?: string }) : {};
    const tableName = settings.table_name ?? 'loyalty-local';
    process.env.TABLE_NAME = tableName;
    process.env.AWS_REGION ??= 'local';
    if (settings.dynamodb_endpoint && (await endpointAnswers(settings.dynamodb_endpoint))) {
      process.env.DYNAMODB_ENDPOINT = settings.dynamodb_endpoint;
      return async () => undefined;
    }
    // The stack is not running: open its data directly (the same files `npm start` uses).
    const { startDynamoDbLocal, localClient } = await import('./local/dynamodb-local.ts');
    const { ensureTable } = await import('./local/table.ts');
    const dynamo = await startDynamoDbLocal({ dataDirectory: join(localDirectory, 'dynamodb') });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    const client = localClient(dynamo.endpoint);
    await ensureTable(client, tableName);
    client.destroy();
    return () => dynamo.stop();
  }
  if (!process.env.TABLE_NAME) {
    const hint = existsSync(localDirectory) ? '\n\nA local stack exists here (.local/): add --local to use it.' : '';
    throw new UsageError(`No table chosen.\n\n${TABLE_HELP}${hint}`);
  }
  return async () => undefined;
}

/** `--lng -71.06` as `--lng=-71.06`: parseArgs would take a negative number for an option name. */
function joinNegativeNumbers(args: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    const next = args[index + 1];
    const option = argument.startsWith('--') ? options[argument.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${argument}=${next}`);
      index++;
    } else {
      joined.push(argument);
    }
  }
  return joined;
}

/** Runs the CLI on `argv` (without node and the script); returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const name = argv.find((argument) => !argument.startsWith('-'));
  const rest = name === undefined ? [...argv] : argv.filter((_, index) => index !== argv.indexOf(name));
  let cleanup: () => Promise<void> = async () => undefined;
  try {
    if (name === undefined) {
      const { values } = parseArgs({ args: rest, options: GLOBAL_OPTIONS, strict: false });
      if (values.help) {
        console.log(await generalHelp());
        return 0;
      }
      console.error(await generalHelp());
      return 2;
    }
    const command = await loadCommand(name);
    if (!command) throw new UsageError(`Unknown command "${name}". Commands: ${Object.keys(commands).join(', ')}`);
    let values: OptionValues;
    try {
      const options = { ...command.options, ...GLOBAL_OPTIONS };
      values = parseArgs({ args: joinNegativeNumbers(rest, options), options, strict: true, allowPositionals: false }).values as OptionValues;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (values.help) {
      console.log(await commandUsage(name));
      return 0;
    }
    cleanup = await chooseTable(values.local === true);
    const result = await command.run(values);
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`Usage error: ${error.message}`);
      if (name !== undefined && (await loadCommand(name))) console.error(`\n${await commandUsage(name, false)}`);
      return 2;
    }
    if (error instanceof CommandError || error instanceof ApiError) {
      console.error(`Failed: ${error.message}`);
      return 1;
    }
    console.error(`Failed: ${(error as Error).stack ?? String(error)}`);
    return 1;
  } finally {
    await cleanup();
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

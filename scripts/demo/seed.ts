/**
 * The demo data `npm start` puts into an empty local table, and the walkthrough it prints.
 * docs/demo.md describes what is seeded.
 *
 * Foundation data is made here: what only the platform does (the app, the merchants, their first owners, the
 * users and a card) through the same domain calls the admin CLI uses; what a merchant does itself (its
 * locations) by its owner through the management API over HTTP. Each area then adds its own data through
 * AREA_SEEDERS below, its merchant-side part through the API too (context.owner).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { log } from '#shared/log.ts';
import { isoSeconds } from '#shared/time.ts';
import { MERCHANT_PERMISSIONS, USER_PERMISSIONS } from '#shared/routes.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { createApp } from '#shared/domain/identity/apps.ts';
import { createMerchant } from '#shared/domain/merchants/merchants.ts';
import { Login } from '#shared/domain/identity/entities.ts';
import { createUser, getUser } from '#shared/domain/identity/users.ts';
import { parseHoursSpec } from '#shared/domain/merchants/locations.ts';
import { addCreditCard, listCreditCards } from '#shared/domain/cards/credit-cards.ts';
import { LIMITED_FUNDS_AMOUNT, SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { DEMO_APP, DEMO_LOCATIONS, DEMO_MERCHANT, DEMO_OTHER_MERCHANT, DEMO_PLACES, DEMO_USERS } from './foundation-data.ts';
import type { AreaSeeder, Demo, DemoContext, DemoOwner, DemoUser, FoundationDemo } from './context.ts';
import { createLocationAs, signInFirstOwner, type DemoOwnerLogin, type OwnerSession } from './management.ts';

/**
 * Area seeders, run in this order after the foundation. Each area adds ONE line for its own module
 * (`scripts/demo/<area>.ts`, exporting `seed<Area>(context: DemoContext)`), for example:
 *   { area: '<area>', seed: async (context) => (await import('./<area>.ts')).seed<Area>(context) },
 * The keys it returns are merged into .local/demo.json (they must not reuse a foundation key).
 * The import path is static so the type checker and bundlers see it.
 */
const AREA_SEEDERS: readonly { area: string; seed: AreaSeeder }[] = [
  { area: 'loyalty', seed: async (context) => (await import('./loyalty.ts')).seedLoyalty(context) },
  { area: 'money', seed: async (context) => (await import('./money.ts')).seedMoney(context) },
  { area: 'order-ahead', seed: async (context) => (await import('./order-ahead.ts')).seedOrderAhead(context) },
  { area: 'contributions', seed: async (context) => (await import('./contributions.ts')).seedContributions(context) },
];

function progress(step: string, fields: Record<string, unknown> = {}): void {
  log('info', 'demo seed', { step, ...fields });
}

/** .local/settings.json: where the local stack's table is, for `npm run admin -- --local`. */
export function localSettingsFile(demoFile: string): string {
  return join(dirname(demoFile), 'settings.json');
}

function writeLocalSettings(demoFile: string, baseUrl: string): void {
  const settings = {
    dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT,
    table_name: table(),
    s3_endpoint: process.env.S3_ENDPOINT,
    images_bucket: process.env.IMAGES_BUCKET,
    base_url: baseUrl,
    written_at: isoSeconds(),
  };
  writeFileSync(localSettingsFile(demoFile), `${JSON.stringify(settings, null, 2)}\n`);
}

/** The partial demo of a seed under way (secrets included: local only), so a start cut short resumes where it stopped. */
interface SeedProgress {
  /** The app's API key and client secret are shown once: kept from the moment it is made. */
  app?: FoundationDemo['app'];
  /** The foundation once complete, with the keys of each area done since. */
  demo?: Demo;
  areas_done: string[];
}

export function seedProgressFile(demoFile: string): string {
  return `${demoFile}.partial`;
}

function readProgress(file: string): SeedProgress {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SeedProgress) : { areas_done: [] };
}

function saveProgress(file: string, progressSoFar: SeedProgress): void {
  writeFileSync(file, `${JSON.stringify(progressSoFar, null, 2)}\n`, { mode: 0o600 });
}

/** A merchant and its shared login, as `npm run admin -- create-merchant` makes it, unless its login exists already. */
async function ensureMerchant({ owner: _owner, ...input }: typeof DEMO_MERCHANT | typeof DEMO_OTHER_MERCHANT): Promise<number> {
  const login = await Login.at(input.username).get({ consistent: true });
  if (login?.merchant_id !== undefined) return login.merchant_id;
  return (await createMerchant(input)).merchant_id;
}

/** A user of the app (with a sandbox card when the demo says so), unless their login exists already. */
async function ensureUser(appId: number, input: (typeof DEMO_USERS)[number]): Promise<DemoUser> {
  const login = await Login.at(input.email).get({ consistent: true });
  const existing = login?.user_id === undefined ? undefined : await getUser(login.user_id);
  const user =
    existing ?? (await createUser(appId, { email: input.email, first_name: input.first_name, last_name: input.last_name, password: input.password }));
  const token = await issueToken({ subject: 'user', userId: user.user_id, appId, permissions: USER_PERMISSIONS, unlimited: true });
  // A suffixed nonce is its own card: the plain `fake-valid-nonce` stays free for the walkthrough.
  if (input.has_card && (await listCreditCards(user.user_id)).length === 0) await addCreditCard(user.user_id, `${SANDBOX_NONCES.valid}-demo`);
  return { id: user.user_id, email: user.email, password: input.password, token, payment_token_data: user.payment_token_data, has_card: input.has_card };
}

const demoOwner = (session: OwnerSession): DemoOwner => ({ email: session.email, password: session.password, staff_id: session.staffId, token: session.token });

/**
 * The foundation, the platform's part as the operators make it (the app, the merchants and their first owners:
 * the same domain calls as `npm run admin`), the merchants' part as they make it themselves: each owner signs in
 * through POST /v15/access_tokens and creates its locations through the management API. Every step is skipped
 * or replayed when a start cut short did it already.
 */
async function seedFoundation(urls: { baseUrl: string; apiUrl: string }, progressFile: string, progressSoFar: SeedProgress): Promise<FoundationDemo> {
  if (!progressSoFar.app) {
    const { app, apiKey, clientSecret } = await createApp({ name: DEMO_APP.name, global: true });
    progressSoFar.app = { id: app.app_id, api_key: apiKey, client_secret: clientSecret };
    saveProgress(progressFile, progressSoFar);
  }
  const app = progressSoFar.app;
  progress('app created', { app_id: app.id, global: true });

  const merchantIds = { merchant: await ensureMerchant(DEMO_MERCHANT), other_merchant: await ensureMerchant(DEMO_OTHER_MERCHANT) };
  progress('merchants created', { merchant_ids: Object.values(merchantIds) });

  const owners = {
    merchant: await signInOwner(urls, app, merchantIds.merchant, DEMO_MERCHANT.owner),
    other_merchant: await signInOwner(urls, app, merchantIds.other_merchant, DEMO_OTHER_MERCHANT.owner),
  };
  progress('owners signed in', { staff_ids: [owners.merchant.staffId, owners.other_merchant.staffId] });

  const locationIds = { merchant: [] as number[], other_merchant: [] as number[] };
  // One at a time, so ids follow the list (the first page of the demo app is Boston's).
  for (const { owner, hours, delivery_radius_m, yelp_url, ...location } of DEMO_LOCATIONS) {
    const id = await createLocationAs(owners[owner], location.name, {
      ...location,
      hours: parseHoursSpec(hours),
      delivery_radius_m: delivery_radius_m ?? null,
      yelp_url: yelp_url ?? null,
      supports_scheduling: location.fulfillment_types.includes('pickup'),
      ready_time_estimate_in_minutes: location.fulfillment_types.includes('delivery') ? 35 : 10,
    });
    locationIds[owner].push(id);
  }
  progress('locations created', { count: DEMO_LOCATIONS.length, merchant: locationIds.merchant.length, other_merchant: locationIds.other_merchant.length });

  const [merchantToken, otherMerchantToken] = await Promise.all(
    [merchantIds.merchant, merchantIds.other_merchant].map((merchantId) =>
      issueToken({ subject: 'merchant', merchantId, appId: app.id, permissions: MERCHANT_PERMISSIONS }),
    ),
  );

  const users: DemoUser[] = [];
  for (const input of DEMO_USERS) users.push(await ensureUser(app.id, input));
  progress('users created', { user_ids: users.map((user) => user.id), with_card: users.filter((user) => user.has_card).map((user) => user.id) });

  return {
    base_url: urls.baseUrl,
    app,
    merchant: {
      id: merchantIds.merchant,
      token: merchantToken!,
      location_ids: locationIds.merchant,
      username: DEMO_MERCHANT.username,
      password: DEMO_MERCHANT.password,
      owner: demoOwner(owners.merchant),
    },
    other_merchant: {
      id: merchantIds.other_merchant,
      token: otherMerchantToken!,
      location_ids: locationIds.other_merchant,
      owner: demoOwner(owners.other_merchant),
    },
    users,
    card_nonces: {
      valid: SANDBOX_NONCES.valid,
      invalid_expiration: SANDBOX_NONCES.invalidExpiration,
      declines: SANDBOX_NONCES.declines,
      limited_funds: SANDBOX_NONCES.limitedFunds,
      limited_funds_amount: LIMITED_FUNDS_AMOUNT,
    },
  };
}

function signInOwner(urls: { baseUrl: string; apiUrl: string }, app: FoundationDemo['app'], merchantId: number, owner: DemoOwnerLogin): Promise<OwnerSession> {
  return signInFirstOwner({ apiUrl: urls.apiUrl, baseUrl: urls.baseUrl, apiKey: app.api_key, merchantId, owner });
}

/**
 * Seeds the demo into the table (TABLE_NAME at DYNAMODB_ENDPOINT) unless it is already there, and
 * writes `demoFile` (secrets included: local only). Returns the demo, or undefined when the table
 * was seeded before. Also writes .local/settings.json (the table's endpoint) on every start.
 * The API must answer at `apiUrl` (default `baseUrl`): the merchants' part goes through it. A seed cut short
 * (its progress in `<demoFile>.partial`) resumes on the next call and adds nothing twice.
 */
export async function seedDemoIfEmpty(options: { baseUrl: string; demoFile: string; apiUrl?: string }): Promise<Demo | undefined> {
  mkdirSync(dirname(options.demoFile), { recursive: true });
  writeLocalSettings(options.demoFile, options.baseUrl);
  const marker = await db().send(new GetCommand({ TableName: table(), Key: keys.demoSeed(), ConsistentRead: true }));
  if (marker.Item) {
    if (!existsSync(options.demoFile)) {
      throw new Error(
        `The table already holds the demo, but ${options.demoFile} (its tokens and passwords) is missing. Delete ${join(dirname(options.demoFile), 'dynamodb')} to start over with a fresh demo.`,
      );
    }
    progress('demo already seeded', { demo_file: options.demoFile });
    return undefined;
  }

  const progressFile = seedProgressFile(options.demoFile);
  const progressSoFar = readProgress(progressFile);
  progress(progressSoFar.app ? 'resuming' : 'seeding', { table: table(), areas_done: progressSoFar.areas_done });
  const urls = { baseUrl: options.baseUrl, apiUrl: options.apiUrl ?? options.baseUrl };
  if (!progressSoFar.demo) {
    progressSoFar.demo = { ...(await seedFoundation(urls, progressFile, progressSoFar)) };
    saveProgress(progressFile, progressSoFar);
  }
  const demo = progressSoFar.demo;
  // The owner's token of a start cut short may have expired: sign in again (the owner and their password exist).
  const owner = await signInOwner(urls, demo.app, demo.merchant.id, DEMO_MERCHANT.owner);
  demo.merchant.owner = demoOwner(owner);
  const context: DemoContext = { ...demo, owner, progress };
  for (const { area, seed } of AREA_SEEDERS) {
    if (progressSoFar.areas_done.includes(area)) continue;
    mergeDemoKeys(demo, await seed(context), area);
    progressSoFar.areas_done.push(area);
    saveProgress(progressFile, progressSoFar);
  }

  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keys.demoSeed(),
        entity: 'DemoSeed',
        app_id: demo.app.id,
        merchant_ids: [demo.merchant.id, demo.other_merchant.id],
        user_ids: demo.users.map((user) => user.id),
        created_at: isoSeconds(),
        updated_at: isoSeconds(),
      },
    }),
  );
  writeFileSync(options.demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  rmSync(progressFile, { force: true });
  progress('demo seeded', { demo_file: options.demoFile });
  return demo;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Merges an area's keys into demo.json. An area may add fields to a foundation object (money adds
 * `merchant.manager_confirmation`) but never overwrite a value another seeder wrote.
 */
function mergeDemoKeys(target: Record<string, unknown>, added: Record<string, unknown>, area: string, path = ''): void {
  for (const [key, value] of Object.entries(added)) {
    const existing = target[key];
    if (existing === undefined) target[key] = value;
    else if (isPlainObject(existing) && isPlainObject(value)) mergeDemoKeys(existing, value, area, `${path}${key}.`);
    else throw new Error(`The ${area} demo seeder returned ${path}${key}, which is already in demo.json`);
  }
  if (path === '') progress('area seeded', { area, keys: Object.keys(added) });
}

const FOUNDATION_KEYS = new Set(['base_url', 'app', 'merchant', 'other_merchant', 'users', 'card_nonces']);

/** A short curl walkthrough with the demo's own ids and tokens, for the terminal. */
export function printWalkthrough(demo: Demo): void {
  const withCard = demo.users.find((user) => user.has_card) ?? demo.users[0]!;
  const withoutCard = demo.users.find((user) => !user.has_card) ?? demo.users[1] ?? withCard;
  const locations = `$BASE/v15/apps/${demo.app.id}/locations`;
  const { harvardSquare, kendallSquare } = DEMO_PLACES;
  const lines = [
    '',
    'Demo ready. Ids, tokens and passwords: .local/demo.json; what it contains: docs/demo.md.',
    '',
    `  export BASE=${demo.base_url}`,
    '',
    `  # App ${demo.app.id}'s locations (${DEMO_LOCATIONS.length} in five cities; in-store ones unless fulfillment_types says otherwise); follow Link, 204 ends the list`,
    `  curl -i "${locations}"`,
    '  # Nearest to Harvard Square first, in store or pickup',
    `  curl -i "${locations}?fulfillment_types=in_store,pickup&lat=${harvardSquare.lat}&lng=${harvardSquare.lng}"`,
    '  # Who delivers to Kendall Square',
    `  curl -i "${locations}?fulfillment_types=delivery&in_delivery_area=true&lat=${kendallSquare.lat}&lng=${kendallSquare.lng}"`,
    '',
    `  # ${withCard.email} (has a card)`,
    `  curl -H "Authorization: token ${withCard.token}" "$BASE/v15/users"`,
    `  curl -H "Authorization: token ${withCard.token}" "$BASE/v15/credit_cards"`,
    `  # ${withoutCard.email} adds a sandbox card (nonces: ${Object.values(demo.card_nonces)
      .filter((value) => typeof value === 'string')
      .join(', ')})`,
    `  curl -X POST -H "Authorization: token ${withoutCard.token}" -H "Content-Type: application/json" \\`,
    `       -d '{"credit_card": {"gateway_payment_nonce": "${demo.card_nonces.valid}"}}' "$BASE/v15/credit_cards"`,
    '  # Log in as the merchant',
    `  curl -X POST -H "Content-Type: application/json" \\`,
    `       -d '{"access_token": {"api_key": "${demo.app.api_key}", "username": "${demo.merchant.username}", "password": "${demo.merchant.password}"}}' "$BASE/v15/access_tokens"`,
    `  # The merchant's owner (${demo.merchant.owner.email}) made its locations and campaigns through the management API`,
    `  curl -H "Authorization: token ${demo.merchant.owner.token}" "$BASE/v15/merchants/${demo.merchant.id}/all_campaigns"`,
    '',
    '  # An app token (api_key + client_secret), then ask the user with a card for a permission; they answer with PUT /v15/permissions_requests/:id',
    `  curl -X POST -H "Content-Type: application/json" -d '{"api_key": "${demo.app.api_key}", "client_secret": "${demo.app.client_secret}"}' "$BASE/v15/access_tokens"`,
    `  curl -X POST -H "Authorization: token <app token>" -H "Content-Type: application/json" \\`,
    `       -d '{"permissions_request": {"email": "${withCard.email}", "permission_keynames": ["read_user_basic_info"]}}' "$BASE/v15/apps/permissions_requests"`,
    '  # Forgot a password: the email lands in the SES emulator (its page: see "ses emulator started" above)',
    `  curl -X POST -H "Content-Type: application/json" -d '{"email": "${withCard.email}"}' "$BASE/v14/passwords"`,
    '',
    '  # Operators: npm run admin -- --help   (add --local to work on this table)',
  ];
  const areaKeys = Object.keys(demo).filter((key) => !FOUNDATION_KEYS.has(key));
  if (areaKeys.length > 0) {
    lines.push('', '  Also seeded (see .local/demo.json):');
    for (const key of areaKeys) lines.push(`    ${key}: ${JSON.stringify(demo[key]).slice(0, 160)}`);
  }
  console.log(`${lines.join('\n')}\n`);
}

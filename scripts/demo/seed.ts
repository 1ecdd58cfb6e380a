/**
 * The demo data `npm start` puts into an empty local table, and the walkthrough it prints.
 * docs/demo.md describes what is seeded.
 *
 * Foundation data (app, merchants, locations, users, a card) is made here, through the same domain
 * calls the admin CLI uses; each area then adds its own data through AREA_SEEDERS below.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
import { createUser } from '#shared/domain/identity/users.ts';
import { createLocation, parseHoursSpec } from '#shared/domain/merchants/locations.ts';
import { addCreditCard } from '#shared/domain/cards/credit-cards.ts';
import { LIMITED_FUNDS_AMOUNT, SANDBOX_NONCES } from '#shared/payments/sandbox.ts';
import { DEMO_APP, DEMO_LOCATIONS, DEMO_MERCHANT, DEMO_OTHER_MERCHANT, DEMO_PLACES, DEMO_USERS } from './foundation-data.ts';
import type { AreaSeeder, Demo, DemoContext, DemoUser, FoundationDemo } from './context.ts';

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

async function seedFoundation(baseUrl: string): Promise<FoundationDemo> {
  const { app, apiKey, clientSecret } = await createApp({ name: DEMO_APP.name, global: true });
  progress('app created', { app_id: app.app_id, global: true });

  const merchant = await createMerchant(DEMO_MERCHANT);
  const otherMerchant = await createMerchant(DEMO_OTHER_MERCHANT);
  progress('merchants created', { merchant_ids: [merchant.merchant_id, otherMerchant.merchant_id] });

  const locationIds = { merchant: [] as number[], other_merchant: [] as number[] };
  // One at a time, so ids follow the list (the first page of the demo app is Boston's).
  for (const { owner, hours, delivery_radius_m, yelp_url, ...location } of DEMO_LOCATIONS) {
    const created = await createLocation({
      ...location,
      merchant_id: owner === 'merchant' ? merchant.merchant_id : otherMerchant.merchant_id,
      hours: parseHoursSpec(hours),
      delivery_radius_m: delivery_radius_m ?? null,
      yelp_url: yelp_url ?? null,
      supports_scheduling: location.fulfillment_types.includes('pickup'),
      ready_time_estimate_in_minutes: location.fulfillment_types.includes('delivery') ? 35 : 10,
    });
    locationIds[owner].push(created.location_id);
  }
  progress('locations created', { count: DEMO_LOCATIONS.length, merchant: locationIds.merchant.length, other_merchant: locationIds.other_merchant.length });

  const [merchantToken, otherMerchantToken] = await Promise.all(
    [merchant, otherMerchant].map((owner) =>
      issueToken({ subject: 'merchant', merchantId: owner.merchant_id, appId: app.app_id, permissions: MERCHANT_PERMISSIONS }),
    ),
  );

  const users: DemoUser[] = [];
  for (const input of DEMO_USERS) {
    const user = await createUser(app.app_id, { email: input.email, first_name: input.first_name, last_name: input.last_name, password: input.password });
    const token = await issueToken({ subject: 'user', userId: user.user_id, appId: app.app_id, permissions: USER_PERMISSIONS, unlimited: true });
    // A suffixed nonce is its own card: the plain `fake-valid-nonce` stays free for the walkthrough.
    if (input.has_card) await addCreditCard(user.user_id, `${SANDBOX_NONCES.valid}-demo`);
    users.push({ id: user.user_id, email: user.email, password: input.password, token, payment_token_data: user.payment_token_data, has_card: input.has_card });
  }
  progress('users created', { user_ids: users.map((user) => user.id), with_card: users.filter((user) => user.has_card).map((user) => user.id) });

  return {
    base_url: baseUrl,
    app: { id: app.app_id, api_key: apiKey, client_secret: clientSecret },
    merchant: {
      id: merchant.merchant_id,
      token: merchantToken!,
      location_ids: locationIds.merchant,
      username: DEMO_MERCHANT.username,
      password: DEMO_MERCHANT.password,
    },
    other_merchant: { id: otherMerchant.merchant_id, token: otherMerchantToken!, location_ids: locationIds.other_merchant },
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

/**
 * Seeds the demo into the table (TABLE_NAME at DYNAMODB_ENDPOINT) unless it is already there, and
 * writes `demoFile` (secrets included: local only). Returns the demo, or undefined when the table
 * was seeded before. Also writes .local/settings.json (the table's endpoint) on every start.
 */
export async function seedDemoIfEmpty(options: { baseUrl: string; demoFile: string }): Promise<Demo | undefined> {
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

  progress('seeding', { table: table() });
  const foundation = await seedFoundation(options.baseUrl);
  const demo: Demo = { ...foundation };
  const context: DemoContext = { ...foundation, progress };
  for (const { area, seed } of AREA_SEEDERS) {
    mergeDemoKeys(demo, await seed(context), area);
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

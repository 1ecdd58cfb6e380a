/**
 * Bad input, property-based: every route of shared/routes.ts (new routes are picked up automatically)
 * gets random and malformed bodies, query strings, path parameters, headers, content types and
 * credentials. Every answer must be below 500 and, when 4xx, in the contract's error format; and a
 * request that is not accepted (not 2xx) must change nothing in the table (full Scan before and after,
 * ignoring only documented bookkeeping). Oversized bodies get 413.
 *
 * Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run test/fuzz.
 * FUZZ_RUNS sets the runs per route (default keeps the file well under two minutes on two cores).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '#shared/http/inputs.ts';
import { auditLedger } from '#shared/domain/money/ledger.ts';
import { REPRESENTATION_TYPES } from '#shared/domain/loyalty/representations.ts';
import { SAMPLE_IDS } from '#shared/domain/order-ahead/sample-menu.ts';
import { MERCHANT_PERMISSIONS, USER_PERMISSIONS, routeKey, routes, type Route } from '#shared/routes.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { appFixture } from '../support/fixtures.ts';
import { staffFixture } from '../support/staff.ts';
import { LOCATION_PLACE } from '../support/locations.ts';
import {
  contractErrorProblem,
  politeCall,
  snapshotTable,
  tableChanges,
  tenantWorld,
  type Snapshot,
  type TableChange,
  type TenantWorld,
} from '../support/fuzz.ts';
import { pollUntilSettled, startOrderAheadTestApi } from '../support/order-ahead.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const fcOptions = (numRuns = RUNS) => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true });

const api = useTestApi(startOrderAheadTestApi);
let world: TenantWorld;
let apiKey: string;
let baseline: Snapshot;
/** Order-ahead orders an accepted start created: their validation (the state machine) goes on in the background. */
const acceptedOrderAhead = new Set<string>();

/** Merchant 1's owner and a staff member: the management routes take a staff member's token (docs/merchant-api.md). */
let staff: { owner: Awaited<ReturnType<typeof staffFixture>>; member: Awaited<ReturnType<typeof staffFixture>> };

beforeAll(async () => {
  world = await tenantWorld(api);
  apiKey = (await appFixture()).apiKey;
  const merchantId = world.merchant1.merchant.merchant_id;
  staff = { owner: await staffFixture(world.app.app_id, merchantId, 'owner'), member: await staffFixture(world.app.app_id, merchantId, 'staff') };
  baseline = await snapshotTable();
});

// ---------------------------------------------------------------------------------------------------
// Generators

/** Values that break naive parsers: type confusion, extremes, odd text. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0.0001, 1e308, -1e308, 2 ** 53 + 2, 99999999999, '', ' ', '0', '-1', 'null', 'NaN', 'Infinity', '1e309'),
  fc.constantFrom(
    '<script>alert(1)</script>',
    "'; DROP TABLE x; --",
    '\u0000',
    '\u202e',
    '🙂'.repeat(50),
    'a'.repeat(5000),
    '2024-02-30T25:61:00Z',
    '__proto__',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')),
);

type Json = null | boolean | number | string | Json[] | { [name: string]: Json };

const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Paths (lists of keys) of every node of a JSON value. */
function nodePaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const paths = [path];
  if (Array.isArray(value)) value.forEach((entry, index) => paths.push(...nodePaths(entry, [...path, index])));
  else if (value && typeof value === 'object') for (const [name, entry] of Object.entries(value)) paths.push(...nodePaths(entry, [...path, name]));
  return paths;
}

function getAt(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head!];
  } else copy[head!] = setAt(copy[head!], rest, replacement, remove);
  return copy;
}

/**
 * A node nested inside itself `depth` times through one of its arrays (e.g. an order item whose
 * children contain the item again): deep structures are where recursion and storage limits hide.
 */
function deepen(value: unknown, path: (string | number)[], depth: number): unknown {
  const node = getAt(value, path);
  if (!node || typeof node !== 'object') return value;
  const arrayPath = nodePaths(node).find((candidate) => candidate.length > 0 && Array.isArray(getAt(node, candidate)));
  if (!arrayPath)
    return setAt(
      value,
      path,
      Array.from({ length: 1 }).reduce<unknown>((inner) => [inner], node),
    );
  let nested: unknown = node;
  for (let level = 0; level < depth; level++) nested = setAt(node, arrayPath, [nested]);
  return setAt(value, path, nested);
}

type Mutation = { op: 'replace' | 'remove' | 'add' | 'deepen' | 'wrap'; at: number; value: unknown; name: string; depth: number };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('replace', 'replace', 'replace', 'remove', 'add', 'deepen', 'wrap'),
  at: fc.nat(),
  value: weirdValue,
  name: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'id', 'user_id', 'merchant_id', 'amount')),
  depth: fc.integer({ min: 2, max: 60 }),
});

function mutate(sample: Json, mutations: Mutation[]): unknown {
  let value: unknown = sample;
  for (const change of mutations) {
    const paths = nodePaths(value);
    const path = paths[change.at % paths.length]!;
    const node = getAt(value, path);
    switch (change.op) {
      case 'replace':
        value = setAt(value, path, change.value);
        break;
      case 'remove':
        value = path.length === 0 ? undefined : setAt(value, path, undefined, true);
        break;
      case 'add':
        value =
          node && typeof node === 'object' && !Array.isArray(node)
            ? setAt(value, path, { ...node, [change.name]: change.value })
            : setAt(value, path, change.value);
        break;
      case 'deepen':
        value = deepen(value, path, change.depth);
        break;
      case 'wrap':
        value = setAt(value, path, [node]);
        break;
    }
  }
  return value;
}

/** A well-formed body for each route that takes one, so mutations start from something that reaches the domain. */
function sampleBody(route: Route): Json | undefined {
  const a = world.userA;
  const qr = a.user.payment_token_data;
  const location = world.location1.location_id;
  const cart = {
    order: {
      location_id: location,
      conveyance: { fulfillment_type: 'pickup', desired_ready_time: null, delivery_address_id: null },
      items: [{ item: { id: SAMPLE_IDS.burrito, quantity: 1, option_ids: [SAMPLE_IDS.cheese], special_instructions: null } }],
      upsell_ids: [],
      tip_amount: 0,
    },
  };
  const item = {
    item: {
      charged_price_amount: 500,
      description: 'A thing',
      name: 'Thing',
      quantity: 1,
      sku: 'SKU-1',
      category: 'Food',
      standard_price_amount: 500,
      upc: null,
      children: [],
    },
  };
  const samples: Record<string, Json> = {
    'POST /v15/access_tokens': { access_token: { api_key: apiKey, username: a.email, password: 'not the password', device_identifier: 'fuzz' } },
    'POST /v14/access_tokens': { access_token: { client_id: apiKey, username: world.merchant1.username, password: 'not the password' } },
    'POST /v15/access_tokens/downgrades': { access_token: { permission_keynames: ['read_user_basic_info'] } },
    'PUT /v14/users/{id}': { user: { first_name: 'Fuzzed', custom_attributes: { color: 'blue' }, new_password: 'a new fuzz password' } },
    'POST /v15/apps/users': {
      api_key: apiKey,
      user: { email: 'fuzz-app-user@example.com', first_name: 'Fuzz', last_name: 'App', phone: '(555) 555-5555', custom_attributes: { foo: 'bar' } },
      permission_keynames: ['create_orders'],
    },
    'POST /v15/users': {
      api_key: apiKey,
      user: { email: 'fuzz-android@example.com', first_name: 'Fuzz', last_name: 'Android', terms_accepted: true },
      permission_keynames: ['read_user_basic_info'],
    },
    'POST /v14/passwords': { email: a.email },
    'POST /v15/password_resets': { password_reset: { token: 'f'.repeat(64), password: 'a new fuzz password' } },
    'POST /v15/apps/permissions_requests': { permissions_request: { email: world.userB.email, permission_keynames: ['create_orders'] } },
    'PUT /v15/permissions_requests/{id}': { permissions_request: { state: 'rejected' } },
    'POST /v14/users': {
      api_key: apiKey,
      user: {
        email: 'fuzz@example.com',
        first_name: 'Fuzz',
        last_name: 'Tester',
        password: 'fuzz password',
        born_at: '1990-01-01',
        gender: 'female',
        phone: '617-555-0100',
      },
    },
    'PUT /v15/users': { user: { first_name: 'Fuzzed', custom_attributes: { color: 'blue' }, email: a.email, born_at: null } },
    'POST /v15/user_addresses': {
      user_address: {
        address_type: 'delivery',
        street_address: '1 Main St',
        extended_address: null,
        locality: 'Boston',
        region: 'MA',
        postal_code: '02110',
        nickname: 'Home',
        latitude: 42.36,
        longitude: -71.05,
      },
    },
    'PUT /v15/user_addresses/{id}': { user_address: { street_address: '2 Main St', latitude: 42.36, longitude: -71.05 } },
    'POST /v15/credit_cards': { credit_card: { gateway_payment_nonce: 'fake-invalid-expiration-nonce', postal_code: '02110' } },
    'POST /v15/merchants/{merchant_id}/gift_card_value_additions': {
      gift_card_value_addition: {
        payment_token_data: qr,
        value_amount: 1000,
        location_id: location,
        order_uuid: null,
        tender_types: ['cash'],
        external_identifier: 'fuzz',
      },
    },
    'POST /v15/proposed_orders': {
      proposed_order: {
        location_id: location,
        payment_token_data: qr,
        spend_amount: 1000,
        tax_amount: 0,
        exemption_amount: 0,
        partial_authorization_allowed: false,
        cashier: 'Fuzz',
        register: '1',
        identifier_from_merchant: 'F1',
        receipt_message_html: '<strong>hi</strong>',
        items: [item],
      },
    },
    'POST /v15/completed_orders': {
      completed_order: {
        proposed_order_uuid: world.openProposalUuid,
        location_id: location,
        payment_token_data: qr,
        spend_amount: 700,
        tax_amount: 0,
        tip_amount: 0,
        applied_discount_amount: 0,
        exemption_amount: 0,
        items: [item],
        fees: [{ fee: { name: 'Bag', type: 'custom', charged_price_amount: 5, collector: 'merchant' } }],
      },
    },
    'POST /v14/orders/{uuid}/refund': { refund: { manager_confirmation: null } },
    'POST /v15/orders/{uuid}/refund': { refund: { manager_confirmation: '1234' } },
    'POST /v15/loyalties/legacy/{campaign_id}/claims': { legacy_loyalty: { legacy_id: 'PUNCH-1' } },
    'POST /v15/campaign_unlockings': {
      campaign_unlocking: { target_campaign_id: world.lockedCampaign.campaign_id, email: world.userB.email, expires_at: '12/31/2099' },
    },
    'PUT /v15/merchants/{merchant_id}/rewards/{claim_id}': { reward: { paused: true } },
    'PUT /v15/locations/{location_id}/rewards/{claim_id}': { reward: { paused: false } },
    'PUT /v15/apps/payment_preference': { payment_preference: { preload: true, preload_value_amount: 2500 } },
    'PUT /v15/checks': {
      check: {
        cashier: 'Fuzz',
        exemption_amount: 0,
        location_id: location,
        partial_authorization_allowed: true,
        register: '1',
        spend_amount: 1200,
        tax_amount: 0,
        identifier_from_merchant: 'F1',
        items: [item],
      },
    },
    'PUT /v15/checks/{uuid}': {
      check: {
        cashier: null,
        exemption_amount: 0,
        location_id: location,
        partial_authorization_allowed: null,
        register: null,
        spend_amount: 1300,
        tax_amount: 10,
        identifier_from_merchant: null,
        items: null,
      },
    },
    'POST /v15/checks/{uuid}/orders': { order: { applied_discount_amount: null, tax_amount: 0, spend_amount: 1200 } },
    'POST /v15/users/gift_card_value_orders': {
      gift_card_value_order: {
        merchant_id: world.merchant1.merchant.merchant_id,
        recipient_email: world.userB.email,
        recipient_name: 'B',
        recipient_message: 'Enjoy',
        value_amount: 1000,
      },
    },
    'POST /v15/locations/{location_id}/merchant_funded_credit': { credit_query: { payment_token_data: qr, identifier_from_merchant: null, items: [item] } },
    'POST /v14/locations/{location_id}/merchant_funded_credit': { credit_query: { payment_token_data: qr, identifier_from_merchant: 'F1', items: null } },
    'POST /v15/locations/{location_id}/get_merchant_funded_gift_card_credit': { get_merchant_funded_gift_card_credit: { payment_token_data: qr } },
    'POST /v15/qr_code_validations': { qr_code_validation: { payment_token_data: qr } },
    'POST /v15/orders': {
      order: {
        location_id: location,
        payment_token_data: qr,
        spend_amount: 700,
        identifier_from_merchant: 'F1',
        cashier: 'Fuzz',
        register: '1',
        applied_discount_amount: null,
        available_gift_card_amount: null,
        exemption_amount: null,
        partial_authorization_allowed: false,
        receipt_message_html: null,
        items: [item],
      },
    },
    'POST /v14/orders': {
      order: {
        location_id: location,
        payment_token_data: qr,
        spend_amount: 700,
        items: [{ item: { charged_price: 700, name: 'Thing', description: 'A thing', quantity: 1, standard_price: 700 } }],
      },
    },
    'POST /v15/merchants/{merchant_id}/gift_card_value_removals': { gift_card_value_removal: { payment_token_data: qr, value_amount: 100, uuid: null } },
    'POST /v15/detached_refunds': {
      detached_refund: {
        credit_amount: 100,
        location_id: location,
        payment_token_data: qr,
        cashier: 'Fuzz',
        customer_facing_reason: 'Sorry',
        identifier_from_merchant: 'F1',
        internal_reason: 'fuzz',
        manager_confirmation: null,
        register: '1',
      },
    },
    'POST /v14/detached_refunds': { detached_refund: { credit_amount: 100, location_id: location, payment_token_data: qr } },
    'POST /v15/merchant_funded_credits': {
      merchant_funded_credit: {
        email: world.userB.email,
        duration_in_seconds: 3600,
        merchant_id: world.merchant1.merchant.merchant_id,
        message: 'Fuzz',
        value_amount: 100,
        global: false,
      },
    },
    'POST /v15/progress_adjustments': {
      progress_adjustment: {
        adjustment: 1,
        audit_comment: 'fuzz',
        campaign_id: world.rewardCampaign.campaign_id,
        user_id: world.userB.user.user_id,
        suppress_email: false,
      },
    },
    'POST /v15/order_ahead/orders': cart,
    'POST /v15/upsells': cart,
    'POST /v15/orders/{uuid}/feedback': { feedback: { question_text: 'How was it?', rating: '5', comment: 'Fine' } },
    'POST /v14/tickets': { ticket: { body: 'Help: my reward is missing' } },
    'POST /v15/merchants/{merchant_id}/staff': { staff: { email: 'fuzz-invite@example.com', name: 'Fuzz Invite', role: 'staff' } },
    'PUT /v15/merchants/{merchant_id}/staff/{staff_id}': { staff: { name: 'Fuzz Renamed' } },
    'POST /v15/merchants/{merchant_id}/locations': {
      location: {
        name: 'Fuzz Kiosk',
        ...LOCATION_PLACE,
        street_address: '1 Fuzz St',
        fulfillment_types: ['in_store', 'delivery'],
        delivery_radius_m: 2000,
        hours: [{ days: ['mon', 'tue'], opens: '07:00', closes: '19:00' }],
      },
    },
    'PUT /v15/merchants/{merchant_id}/locations/{location_id}': {
      location: { hours: [{ days: ['sat'], opens: '09:00', closes: '13:00' }], ready_time_estimate_in_minutes: 25, shown: true },
    },
    'POST /v15/merchants/{merchant_id}/campaigns': { campaign: { kind: 'spend', title: 'Fuzz spend', required_spend_amount: 5000, earn_amount: 500 } },
    'PUT /v15/merchants/{merchant_id}/campaigns/{campaign_id}': { campaign: { title: 'Fuzz renamed', closes_at: null } },
    'POST /v15/merchants/{merchant_id}/campaigns/{campaign_id}/close': { campaign: { closes_at: '2099-01-01T00:00:00Z' } },
    'POST /v15/merchants/{merchant_id}/locations/{location_id}/image_uploads': { image_upload: { content_type: 'image/webp' } },
  };
  return samples[routeKey(route)];
}

/** Values for path parameters: every real id of the world (right or wrong tenant), and junk. */
function pathValue(): fc.Arbitrary<string> {
  const real = [
    world.app.app_id,
    world.merchant1.merchant.merchant_id,
    world.merchant2.merchant.merchant_id,
    world.location1.location_id,
    world.location2.location_id,
    world.userA.address.address_id,
    world.userB.address.address_id,
    world.cards.A,
    world.cards.B,
    world.lockedCampaign.campaign_id,
    world.rewardCampaign.campaign_id,
    world.merchant2Campaign.campaign_id,
    world.orderUuid,
    world.orderAheadUuid,
    world.completedOrderAheadUuid,
    world.menuId,
    world.openProposalUuid,
    world.rewardId,
    world.permissionsRequestId,
    world.checkUuid,
    world.userA.user.user_id,
    world.userB.user.user_id,
    staff.member.staffId,
    staff.owner.staffId,
    world.rewardCampaign.cohort_code!,
    ...REPRESENTATION_TYPES,
  ].map(String);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '9'.repeat(40),
        ' 1',
        '01',
        '0x10',
        'null',
        'undefined',
        'claim-0',
        'earned-1',
        'claim-99999999999999999999',
        'a'.repeat(2000),
        '00000000000000000000000000000000',
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/) },
    { weight: 1, arbitrary: fc.integer().map(String) },
  );
}

/** A concrete path: percent-encoded values, or (sometimes) raw text with broken escapes. */
function pathArbitrary(route: Route): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(route.path);
  const segment = fc.oneof(
    { weight: 8, arbitrary: pathValue().map((value) => encodeURIComponent(value)) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%C0%AF', '%E0%A4%A', '%00', '', '..', '.', ';', '%2F') },
  );
  return fc.tuple(...names.map(() => segment)).map((values) => {
    let index = 0;
    return route.path.replace(/\{[^}]+\}/g, () => values[index++]!);
  });
}

const QUERY_NAMES = [
  'preferences[color]',
  'preferences[tip_amount]',
  'preferences[tip_percent]',
  'width',
  'page',
  'cursor',
  'after',
  'since',
  'last_id',
  'density',
  'height',
  'lat',
  'lng',
  'fulfillment_types',
  'in_delivery_area',
  'transfer_supported',
  'image[width]',
  'image[height]',
  'image[density]',
  'api_key',
  'user_id',
  'location_id',
  'types',
];

const queryArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 5,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 10 })),
          fc.oneof(
            fc.constantFrom(
              '',
              '1',
              '0',
              '-1',
              '2.5',
              '1e400',
              'NaN',
              'true',
              'false',
              'delivery',
              'pickup,in_store',
              'delivery,,x',
              '91',
              '-181',
              'T1JERVIj',
              'ORDER#',
              '9'.repeat(30),
            ),
            fc.string({ unit: 'grapheme', maxLength: 30 }),
            fc.integer().map(String),
            fc.double().map(String),
            fc.base64String({ maxLength: 40 }),
          ),
        ),
        { maxLength: 6 },
      )
      .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`)),
  },
  { weight: 1, arbitrary: fc.constantFrom('?page=%zz', '?lat=1&lat=2&lng=3', '?&&&=', '?page[]=1', '?a=%00', `?cursor=${'A'.repeat(3000)}`) },
);

type TokenChoice = 'right' | 'none' | 'wrong-kind' | 'garbage' | 'quoted' | 'both';

interface FuzzRequest {
  path: string;
  query: string;
  token: TokenChoice;
  garbage: string;
  headers: Record<string, string>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
  contentType: string | undefined;
}

const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });

const headersArbitrary: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    // Mostly fresh keys: a reused key with another body is (rightly) a 422 mismatch that hides the body's fate.
    'Idempotency-Key': fc.oneof(
      { weight: 4, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.oneof(printable(40), fc.constantFrom('', ' ', 'k'.repeat(256), 'fuzz-key')) },
    ),
    Accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml', ''),
    'X-Forwarded-Proto': fc.constantFrom('https', 'http', 'gopher', ''),
    'X-Fuzz': printable(200),
    'Content-Encoding': fc.constantFrom('gzip', 'identity', 'br'),
  },
  { requiredKeys: [] },
);

function bodyArbitrary(route: Route): fc.Arbitrary<FuzzRequest['body']> {
  const sample = sampleBody(route);
  const wrapper = sample && typeof sample === 'object' && !Array.isArray(sample) ? Object.keys(sample) : [];
  const options: { weight: number; arbitrary: fc.Arbitrary<FuzzRequest['body']> }[] = [
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json' as const, value })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.constantFrom(
            '{',
            '{"a":',
            '[1,2',
            'NaN',
            "{'single': 'quotes'}",
            '{"a":1,}',
            '\u0000',
            '{"a":1}{"b":2}',
            '\uFEFF{}',
            '{"a":"\\ud800"}',
            `${'['.repeat(5000)}${']'.repeat(5000)}`,
          ),
        )
        .map((text) => ({ kind: 'raw' as const, text })),
    },
  ];
  if (sample !== undefined) {
    const text = JSON.stringify(sample);
    // Array elements that hold an array themselves (an order item and its children): nested in themselves,
    // they probe recursion and storage depth limits with an otherwise valid body.
    const recursive = nodePaths(sample).filter(
      (path) =>
        typeof path.at(-1) === 'number' &&
        isObject(getAt(sample, path)) &&
        nodePaths(getAt(sample, path)).some((inner) => inner.length > 0 && Array.isArray(getAt(getAt(sample, path), inner))),
    );
    options.push(
      { weight: 1, arbitrary: fc.constant({ kind: 'json' as const, value: sample }) },
      {
        weight: 8,
        arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((changes) => ({ kind: 'json' as const, value: mutate(sample, changes) })),
      },
      { weight: 1, arbitrary: fc.nat({ max: text.length - 1 }).map((cut) => ({ kind: 'raw' as const, text: text.slice(0, cut) })) },
      ...(recursive.length === 0
        ? []
        : [
            {
              weight: 3,
              arbitrary: fc
                .tuple(fc.constantFrom(...recursive), fc.integer({ min: 5, max: 40 }))
                .map(([path, depth]) => ({ kind: 'json' as const, value: deepen(sample, path, depth) })),
            },
          ]),
      {
        weight: 2,
        arbitrary: fc
          .dictionary(fc.oneof(fc.constantFrom(...nodePaths(sample).map((path) => String(path.at(-1) ?? 'x'))), fc.string({ maxLength: 8 })), weirdValue, {
            maxKeys: 6,
          })
          .map((fields) => ({ kind: 'json' as const, value: Object.fromEntries(wrapper.map((name) => [name, fields])) })),
      },
    );
  }
  return fc.oneof(...options);
}

function requestArbitrary(route: Route): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    path: pathArbitrary(route),
    query: queryArbitrary,
    token: fc.oneof(
      { weight: 8, arbitrary: fc.constant<TokenChoice>('right') },
      { weight: 1, arbitrary: fc.constantFrom<TokenChoice>('none', 'wrong-kind', 'garbage', 'quoted', 'both') },
    ),
    garbage: fc.oneof(
      printable(80),
      fc.constantFrom('token', 'token ', 'token user=""', 'Bearer x', `token ${'f'.repeat(64)}`, 'token user="a", merchant="b"', `token ${'x'.repeat(9000)}`),
    ),
    headers: headersArbitrary,
    body: bodyArbitrary(route),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/octet-stream',
          'application/json; charset=utf-16',
          'application/vnd.api+json',
          'application/jsonx',
          '',
        ),
      },
    ),
  });
}

function pathArbitraryExample(route: Route): string {
  const ids: Record<string, string> = {
    id: String(world.userA.address.address_id),
    uuid: world.orderUuid,
    merchant_id: String(world.merchant1.merchant.merchant_id),
    staff_id: String(staff.member.staffId),
    campaign_id: '1',
  };
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? '1');
}

interface FuzzTokens {
  user: string;
  merchant: string;
  app: string;
}

/**
 * Logout (DELETE /v15/access_tokens) revokes whatever it is sent with: it gets fresh tokens of the world's
 * tenants for each request, so it never revokes the tokens every other route's fuzz uses. A payment token
 * rotation acts as user B, whose QR code no other route's sample uses.
 */
async function tokensFor(route: Route): Promise<FuzzTokens> {
  // A management route: merchant 1's owner (the shared login is refused there before any input is read).
  if (route.roles) return { user: world.userA.token, merchant: staff.owner.token, app: world.appToken };
  // A rotation kills the caller's QR code: user B's, so the money routes' samples keep A's.
  if (routeKey(route) === 'POST /v15/payment_token/rotations') return { user: world.userB.token, merchant: world.merchant1.token, app: world.appToken };
  // Deactivating the billed card is user B's: A's card pays for the order routes' samples.
  if (routeKey(route) === 'DELETE /v15/payment_method') return { user: world.userB.token, merchant: world.merchant1.token, app: world.appToken };
  if (routeKey(route) !== 'DELETE /v15/access_tokens') return { user: world.userA.token, merchant: world.merchant1.token, app: world.appToken };
  const appId = world.app.app_id;
  const [user, merchant, app] = await Promise.all([
    issueToken({ subject: 'user', userId: world.userA.user.user_id, appId, permissions: USER_PERMISSIONS, unlimited: true }),
    issueToken({ subject: 'merchant', merchantId: world.merchant1.merchant.merchant_id, appId, permissions: MERCHANT_PERMISSIONS }),
    issueToken({ subject: 'app', appId }),
  ]);
  return { user, merchant, app };
}

function authorizationFor(route: Route, request: FuzzRequest, tokens: FuzzTokens): string | undefined {
  const { user, merchant, app } = tokens;
  const right =
    route.credential === 'merchant'
      ? merchant
      : route.credential === 'none'
        ? undefined
        : route.credential === 'app' || route.credential === 'app-optional'
          ? app
          : route.credential === 'any'
            ? [user, merchant, app][request.garbage.length % 3]!
            : route.credential === 'merchant-or-app'
              ? [merchant, app][request.garbage.length % 2]!
              : user;
  switch (request.token) {
    case 'right':
      return right === undefined ? undefined : `token ${right}`;
    case 'none':
      return undefined;
    case 'wrong-kind':
      return `token ${route.credential === 'merchant' || route.credential === 'merchant-or-app' ? user : merchant}`;
    case 'garbage':
      return request.garbage;
    case 'quoted':
      return route.credential === 'merchant' ? `token merchant="${merchant}"` : `token user="${user}"`;
    case 'both':
      return `token user="${user}", merchant="${merchant}"`;
  }
}

// ---------------------------------------------------------------------------------------------------
// The property

function describeRequest(route: Route, request: FuzzRequest): string {
  const body = request.body.kind === 'none' ? '(none)' : request.body.kind === 'raw' ? request.body.text : String(JSON.stringify(request.body.value));
  return `${route.method} ${request.path}${request.query} token=${request.token} headers=${JSON.stringify(request.headers)} content-type=${request.contentType} body=${body.slice(0, 600)}`;
}

/** Changes a request may make without being accepted: documented bookkeeping only. */
function isBookkeeping(change: TableChange, request: FuzzRequest): boolean {
  const item = (change.after ?? change.before)!;
  // Failed logins, registration lookups, card-vaulting attempts and reset emails are counted whatever the answer
  // (docs/security.md): the counter is the defence.
  if (item.entity === 'RateWindow') return true;
  // Id counters hand out numbers before the guarded write that uses one (shared/db/ids.ts): a rejected
  // request can leave a gap in the ids, never an entity.
  if (item.entity === 'Counter' && change.kind !== 'removed' && change.attributes.every((name) => name === 'value' || change.kind === 'added')) return true;
  // Validation of an order whose start was accepted earlier goes on in the background.
  if (item.entity === 'OrderAheadOrder' && acceptedOrderAhead.has(String(item.uuid))) return true;
  // ... and records its outcome's event (order_ahead.validated / .invalidated) with the order's event counter.
  if (item.entity === 'Event' && item.resource_type === 'order_ahead_order' && acceptedOrderAhead.has(String(item.resource_id))) return true;
  if (item.entity === 'EventSequence' && [...acceptedOrderAhead].some((uuid) => String(item.pk).endsWith(`order_ahead_order#${uuid}`))) return true;
  // 4xx answers are stored for the Idempotency-Key that was sent, so a retry gets the same answer (docs/money.md).
  // As the server receives it: HTTP drops a header value's leading and trailing spaces and tabs.
  const key = request.headers['Idempotency-Key']?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (item.entity === 'IdempotencyKey' && key !== undefined) {
    return String(item.pk).endsWith(`#${createHash('sha256').update(key).digest('hex')}`);
  }
  return false;
}

async function send(route: Route, request: FuzzRequest, tokens: FuzzTokens): Promise<ApiResult> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.contentType !== undefined) headers['Content-Type'] = request.contentType;
  const authorization = authorizationFor(route, request, tokens);
  const body = request.body;
  return politeCall(api, route.method, `${request.path}${request.query}`, {
    headers,
    ...(authorization === undefined ? {} : { authorization }),
    ...(body.kind === 'json' ? (body.value === undefined ? {} : { rawBody: JSON.stringify(body.value) }) : body.kind === 'raw' ? { rawBody: body.text } : {}),
  });
}

describe('every route answers bad input below 500, in the error format, changing nothing', () => {
  it.each(routes.map((route) => [routeKey(route), route] as const))('%s', async (key, route) => {
    const statuses = new Map<number, number>();
    if (process.env.FUZZ_DEBUG && sampleBody(route) !== undefined) {
      const probe = await send(
        route,
        {
          path: pathArbitraryExample(route),
          query: '',
          token: 'right',
          garbage: '',
          headers: {},
          body: { kind: 'json', value: sampleBody(route) },
          contentType: undefined,
        },
        await tokensFor(route),
      );
      console.error('sample', key, probe.status, probe.text.slice(0, 300));
    }
    baseline = await snapshotTable();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(route), async (request) => {
        const tokens = await tokensFor(route);
        // Fresh tokens (logout's) are made before the request, not by it.
        if (tokens.user !== world.userA.token) baseline = await snapshotTable();
        const before = baseline;
        const response = await send(route, request, tokens);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const context = `${describeRequest(route, request)}\n-> ${response.status} ${response.text.slice(0, 500)}`;
        expect(response.status, context).toBeLessThan(500);
        expect(contractErrorProblem(response), context).toBeUndefined();
        const after = await snapshotTable();
        baseline = after;
        if (response.status >= 200 && response.status < 300) {
          // Accepted: a legitimate change. An accepted order-ahead start keeps changing in the background.
          if (route.startsValidation && typeof response.body?.order?.uuid === 'string') acceptedOrderAhead.add(response.body.order.uuid);
          // An accepted completion charges and forwards in the background: let it finish before the next snapshot.
          if (route.startsCompletion && typeof response.body?.order?.order_url === 'string') {
            // Its path on this API: the fuzz's own X-Forwarded-Proto may have made the absolute URL https.
            await pollUntilSettled(api, new URL(response.body.order.order_url).pathname, world.userA.token);
            baseline = await snapshotTable();
          }
          return;
        }
        const changes = tableChanges(before, after).filter((change) => !isBookkeeping(change, request));
        expect(
          changes.map((change) => ({ key: change.key, kind: change.kind, attributes: change.attributes })),
          context,
        ).toEqual([]);
      }),
      fcOptions(),
    );
    // The fuzz reached validation and the domain, not just the credential check.
    if (process.env.FUZZ_DEBUG) console.error(key, JSON.stringify([...statuses]));
    expect(
      [...statuses.keys()].some((status) => status !== 401),
      `${key}: ${JSON.stringify([...statuses])}`,
    ).toBe(true);
  });
});

describe('oversized bodies', () => {
  it.each(routes.map((route) => [routeKey(route), route] as const))('%s answers 413 over the limit and does not at the limit', async (_, route) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 * MAX_BODY_BYTES }), fc.boolean(), fc.constantFrom('a', 'é', '🙂'), async (excess, withToken, filler) => {
        const wrap = (size: number) => {
          const unit = Buffer.byteLength(filler);
          const json = JSON.stringify({ x: filler.repeat(Math.max(0, Math.floor((size - 9) / unit))) });
          return json + ' '.repeat(Math.max(0, size - Buffer.byteLength(json)));
        };
        const tokens = await tokensFor(route);
        const token =
          route.credential === 'merchant' || route.credential === 'merchant-or-app' ? tokens.merchant : route.credential === 'app' ? tokens.app : tokens.user;
        const over = wrap(MAX_BODY_BYTES + excess);
        const tooBig = await politeCall(api, route.method, route.path.replace(/\{[^}]+\}/g, '999999999'), { rawBody: over, ...(withToken ? { token } : {}) });
        expect(Buffer.byteLength(over)).toBeGreaterThan(MAX_BODY_BYTES);
        expect(tooBig.status, tooBig.text).toBe(413);
        expect(contractErrorProblem(tooBig)).toBeUndefined();
        const atLimit = wrap(MAX_BODY_BYTES);
        expect(Buffer.byteLength(atLimit)).toBeLessThanOrEqual(MAX_BODY_BYTES);
        const fits = await politeCall(api, route.method, route.path.replace(/\{[^}]+\}/g, '999999999'), { rawBody: atLimit, ...(withToken ? { token } : {}) });
        expect(fits.status, fits.text).not.toBe(413);
        expect(fits.status, fits.text).toBeLessThan(500);
        expect(contractErrorProblem(fits)).toBeUndefined();
      }),
      fcOptions(2),
    );
  });

  it('a body over the gateway limit (1 MB) is refused before any handler, in the error format', async () => {
    const response = await politeCall(api, 'POST', '/v15/user_addresses', { token: world.userA.token, rawBody: `"${'a'.repeat(1024 * 1024 + 10)}"` });
    expect(response.status).toBe(413);
    expect(contractErrorProblem(response)).toBeUndefined();
  });
});

describe('after the fuzz', () => {
  it('the ledger still balances and no unaccepted request left a trace', async () => {
    const report = await auditLedger();
    expect(report.entries).toBeGreaterThan(0);
    expect(report.mismatches).toEqual([]);
  });
});

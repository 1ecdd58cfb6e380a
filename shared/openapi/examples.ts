/**
 * Examples of request and response bodies for the OpenAPI document, so the docs page shows a body a
 * client could send and an answer it could get rather than the renderer's placeholders (Swagger UI fills
 * an integer with its minimum, -9007199254740991).
 *
 * Real bodies first: the clients' own calls kept in test/fixtures/client-payloads (the C# and iOS SDKs,
 * the LevelUp docs), where the body is one this API accepts (the handler's zod schema parses it) or
 * answers (it matches the response schema). Elsewhere a body is built from the JSON Schema with values
 * chosen by field name (cents for `*_amount`, a Boston address, the contract's timestamp format), then
 * held to the same check. test/openapi/examples.unit.test.ts validates every example against the document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type * as z from '#shared/schemas/zod.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type JsonSchema = Record<string, any>;

/** One client call of test/fixtures/client-payloads (the fields examples use). */
interface ClientCall {
  case?: string;
  method?: string;
  path?: string;
  request_body?: unknown;
  response_status?: number;
  response_body?: unknown;
}

export interface FixtureExample {
  /** `<client file>: <case>`, shown as the example's summary. */
  source: string;
  value: unknown;
}

/** `/v15/locations/:location_id/credit` and `/v15/locations/{location_id}/credit` both become `/v15/locations/*\/credit`. */
function pathShape(path: string): string {
  return path.split('?')[0]!.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '*');
}

/** The client calls of the fixtures, by `METHOD shape`. */
export function loadClientCalls(projectRoot: string): Map<string, { file: string; call: ClientCall }[]> {
  const directory = join(projectRoot, 'test/fixtures/client-payloads');
  const calls = new Map<string, { file: string; call: ClientCall }[]>();
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const parsed = JSON.parse(readFileSync(join(directory, file), 'utf8')) as ClientCall | ClientCall[];
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof call.method !== 'string' || typeof call.path !== 'string') continue;
      const key = `${call.method.toUpperCase()} ${pathShape(call.path)}`;
      calls.set(key, [...(calls.get(key) ?? []), { file, call }]);
    }
  }
  return calls;
}

export function clientCallsOf(calls: Map<string, { file: string; call: ClientCall }[]>, method: string, path: string) {
  return calls.get(`${method} ${pathShape(path)}`) ?? [];
}

export function sourceOf(file: string, call: ClientCall): string {
  return `${file.replace(/\.json$/, '')}${call.case ? `: ${call.case}` : ''}`;
}

/**
 * A request body example the handler accepts (its zod schema parses it) and the document's schema
 * describes (`matches`): a client's own, else one built from the schema (all fields, else the required ones).
 */
export function requestExample(
  body: z.ZodMiniType,
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  clientCalls: { file: string; call: ClientCall }[],
  matches: (value: unknown) => boolean,
): FixtureExample | undefined {
  const accepted = (value: unknown) => value !== undefined && body.safeParse(value).success && matches(value);
  for (const { file, call } of clientCalls) {
    if (accepted(call.request_body)) return { source: sourceOf(file, call), value: call.request_body };
  }
  for (const optional of [true, false]) {
    const value = new ExampleBuilder(components, optional).build(schema, 'body');
    if (accepted(value)) return { source: 'built from the schema', value };
  }
  return undefined;
}

/**
 * Values chosen by name, as a client of a coffee shop's loyalty app would see them. Keys are property
 * names; a name ending in one of SUFFIXES falls back to that suffix's value.
 */
const STRINGS: Record<string, string> = {
  email: 'jane.doe@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  name: 'Downtown Crossing',
  password: 'correct horse battery staple',
  new_password: 'battery staple correct horse',
  street_address: '1 Main St',
  extended_address: 'Suite 200',
  locality: 'Boston',
  region: 'MA',
  postal_code: '02110',
  country: 'US',
  phone: '6175551234',
  nickname: 'Home',
  address_type: 'home',
  payment_token_data: 'LU020000000THISISFAKE000000000LU',
  cashier: 'Bob',
  register: '3',
  identifier_from_merchant: '001001',
  sku: '01abc192',
  upc: '04963406',
  category: 'Breakfast Sides',
  description: 'Shredded potatoes griddled to perfection',
  receipt_message_html: 'Pick up your order at <strong>counter #4</strong>',
  message: 'Thanks for coming in!',
  api_key: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0',
  client_secret: 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3',
  access_token: '2ab3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1',
  token: '2ab3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1',
  code: 'SPRING25',
  cohort_code: 'SPRING25',
  username: 'downtown-crossing-pos',
  gender: 'female',
  birthdate: '1990-04-01',
  born_at: '1990-04-01T12:00:00+00:00',
  time_zone: 'America/New_York',
  hours: 'Mon-Fri 7am-7pm',
  twitter_username: 'levelup',
  facebook_url: 'https://www.facebook.com/levelup',
  website_url: 'https://www.example.com',
  menu_url: 'https://www.example.com/menu',
  number: '4111111111111111',
  expiration_month: '12',
  expiration_year: '2030',
  cvv: '123',
  encrypted_number: 'enc_4111111111111111',
  encrypted_cvv: 'enc_123',
  encrypted_expiration_month: 'enc_12',
  encrypted_expiration_year: 'enc_2030',
  encrypted_postal_code: 'enc_02110',
  last_4: '1111',
  state: 'completed',
  status: 'completed',
  currency: 'USD',
  color: '#00a1e4',
  instructions: 'Extra napkins, please',
  special_instructions: 'No onions',
  title: 'Free coffee',
  terms: 'One per customer.',
  body: 'Your tenth coffee is on us.',
  subject: 'Receipt',
  platform: 'ios',
  device_token: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
  secret: 'whsec_CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYY=',
  url: 'https://pos.example.com/levelup/webhooks',
  callback_url: 'https://pos.example.com/levelup/callback',
  event_type: 'order.completed',
  reason: 'Customer changed their mind',
  manager_confirmation: '1234',
};

const SUFFIXES: [string, string][] = [
  ['_email', 'jane.doe@example.com'],
  ['_url', 'https://www.example.com/levelup'],
  ['_html', '<p>Thanks for coming in!</p>'],
  ['_name', 'Downtown Crossing'],
  ['_code', 'SPRING25'],
  ['_token', '2ab3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1'],
];

/** `name` and `type` depend on what they name: the key of the object that holds them. */
const BY_PARENT: Record<string, Record<string, string>> = {
  name: {
    item: 'Hashbrowns',
    category: 'Breakfast Sides',
    category_group: 'Breakfast',
    contribution_target: 'Boston Food Bank',
    option: 'Extra cheese',
    option_group: 'Toppings',
    merchant: 'Coffee Corner',
    app: 'Coffee Corner Rewards',
    campaign: 'Free coffee on your tenth visit',
    reward: 'Free coffee',
    user: 'Jane Doe',
    location: 'Downtown Crossing',
  },
  type: { credit_card: 'Visa', payment_method: 'Visa', resource: 'order' },
};

const TIMESTAMP = '2015-01-22T16:29:22+00:00';
const UUID = 'b2c4e6f8-1a3c-4e5a-9c7e-0f1a2b3c4d5e';

/** Integers by name: ids and amounts a small shop would see. */
const INTEGERS: Record<string, number> = {
  id: 19,
  location_id: 19,
  merchant_id: 5,
  app_id: 3,
  user_id: 42,
  campaign_id: 11,
  target_campaign_id: 11,
  claim_id: 7,
  menu_id: 2,
  quantity: 1,
  page: 2,
  per_page: 25,
  limit: 25,
  count: 3,
  width: 320,
  height: 320,
  density: 2,
  expiration_month: 12,
  expiration_year: 2030,
  percent: 10,
  tip_percent: 15,
};

/** A plausible text for a name nothing above knows: its words (`receipt_note` -> `Receipt note`). */
function words(name: string): string {
  const text = name.replace(/_/g, ' ').trim();
  return text === '' ? 'Example' : text[0]!.toUpperCase() + text.slice(1);
}

class ExampleBuilder {
  /** The components being built: a recursive one (an item's children) stops at its first repeat. */
  private readonly building: string[] = [];

  constructor(
    private readonly components: Record<string, JsonSchema>,
    /** Whether optional properties are filled in too. */
    private readonly optional: boolean,
  ) {}

  /** `parent` is the key of the object holding this value (`item` for an item's `name`). */
  build(schema: JsonSchema, name: string, depth = 0, parent = ''): unknown {
    if (depth > 40) return undefined;
    if (typeof schema.$ref === 'string') {
      const id = schema.$ref.replace('#/components/schemas/', '');
      const target = this.components[id];
      if (!target || this.building.includes(id)) return undefined;
      this.building.push(id);
      try {
        return this.build(target, name, depth + 1, parent);
      } finally {
        this.building.pop();
      }
    }
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== null) ?? null;
    if (schema.default !== undefined && schema.default !== null) return schema.default;
    // A schema's own example (`z.meta({ examples })`), where no field-by-field build is valid (exactly one of two fields).
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (branches) {
      const branch = branches.find((candidate) => candidate.type !== 'null') ?? branches[0]!;
      return this.build(branch, name, depth + 1, parent);
    }
    if (Array.isArray(schema.allOf)) return this.build(schema.allOf[0], name, depth + 1, parent);
    const type = Array.isArray(schema.type) ? (schema.type as string[]).find((candidate) => candidate !== 'null') : schema.type;
    switch (type) {
      case 'object':
        return this.object(schema, name, depth);
      case 'array': {
        const item = this.build((schema.items ?? {}) as JsonSchema, singular(name), depth + 1, parent);
        return item === undefined ? [] : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
      }
      case 'string':
        return this.string(schema, name, parent);
      case 'integer':
      case 'number':
        return this.number(schema, name, type === 'integer');
      case 'boolean':
        return false;
      case 'null':
        return null;
      default:
        return properties(schema) ? this.object(schema, name, depth) : null;
    }
  }

  /** Undefined when a required property cannot be built (a recursion cut short): the list holding it stays empty. */
  private object(schema: JsonSchema, name: string, depth: number): Record<string, unknown> | undefined {
    const required = new Set((schema.required ?? []) as string[]);
    const result: Record<string, unknown> = {};
    for (const [property, inner] of Object.entries(properties(schema) ?? {})) {
      if (!this.optional && !required.has(property)) continue;
      const value = this.build(inner, property, depth + 1, name);
      if (value !== undefined) result[property] = value;
      else if (required.has(property)) return undefined;
    }
    return result;
  }

  private string(schema: JsonSchema, name: string, parent: string): string {
    const candidates = [
      BY_PARENT[name]?.[singular(parent)],
      name === 'id' ? '7f3a9c2e' : undefined,
      STRINGS[name],
      SUFFIXES.find(([suffix]) => name.endsWith(suffix))?.[1],
      schema.format === 'email' ? STRINGS.email : undefined,
      schema.format === 'uuid' || name.endsWith('uuid') ? UUID : undefined,
      name.endsWith('_at') || schema.format === 'date-time' ? TIMESTAMP : undefined,
      schema.format === 'uri' ? 'https://www.example.com/levelup' : undefined,
      words(name),
      TIMESTAMP,
      UUID,
      '2015-01-22',
      '001001',
      'abc123',
    ].filter((candidate): candidate is string => candidate !== undefined);
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
    if (pattern) candidates.push(samplePattern(schema.pattern));
    const fits = (candidate: string) =>
      (!pattern || pattern.test(candidate)) && candidate.length >= (schema.minLength ?? 0) && candidate.length <= (schema.maxLength ?? Infinity);
    return candidates.find(fits) ?? candidates[0]!.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? undefined);
  }

  private number(schema: JsonSchema, name: string, integer: boolean): number {
    let value =
      INTEGERS[name] ??
      (name.endsWith('amount')
        ? 1250
        : name.endsWith('_id')
          ? 19
          : name === 'latitude' || name === 'lat'
            ? 42.3588
            : name === 'longitude' || name === 'lng'
              ? -71.0574
              : name.endsWith('percent')
                ? 10
                : name.endsWith('_count')
                  ? 3
                  : 1);
    if (integer) value = Math.round(value);
    const minimum = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : -Infinity);
    const maximum = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 0.01) : Infinity);
    return Math.min(Math.max(value, minimum), maximum);
  }
}

/**
 * A string matching a simple pattern (literals, escapes, character classes, `{n}` `{n,m}` `+` `*` `?`,
 * anchors), as this API's schemas write them (`^evt_[0-9a-z]{9}[0-9a-f]{16}$`); each class gives its
 * first character or range start. A pattern it cannot read yields text the caller's check then refuses.
 */
export function samplePattern(pattern: string): string {
  let out = '';
  let index = 0;
  const atom = (): string => {
    const char = pattern[index]!;
    if (char === '\\') {
      const escaped = pattern[index + 1]!;
      index += 2;
      return escaped === 'd' ? '7' : escaped === 'w' ? 'a' : escaped === 's' ? ' ' : escaped;
    }
    if (char === '[') {
      const end = pattern.indexOf(']', index + 1);
      const body = pattern.slice(index + 1, end);
      index = end + 1;
      return body.startsWith('\\') ? (body[1] === 'd' ? '7' : body[1]!) : body[0]!;
    }
    index += 1;
    return char === '.' ? 'a' : char;
  };
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '^' || char === '$') {
      index += 1;
      continue;
    }
    const piece = atom();
    const quantifier = /^(?:\{(\d+)(?:,(\d*))?\}|[+*?])/.exec(pattern.slice(index));
    let times = 1;
    if (quantifier) {
      index += quantifier[0].length;
      times = quantifier[0] === '*' || quantifier[0] === '?' ? 0 : quantifier[1] !== undefined ? Number(quantifier[1]) : 1;
    }
    out += piece.repeat(times);
  }
  return out;
}

/** `categories` -> `category`, `items` -> `item`. */
function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

function properties(schema: JsonSchema): Record<string, JsonSchema> | undefined {
  return schema.properties as Record<string, JsonSchema> | undefined;
}

/** A response body example: a client's own answer where it matches `matches`, else one built from the schema. */
export function responseExample(
  status: number,
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  clientCalls: { file: string; call: ClientCall }[],
  matches: (value: unknown) => boolean,
): FixtureExample | undefined {
  for (const { file, call } of clientCalls) {
    if (call.response_status === status && call.response_body !== undefined && matches(call.response_body))
      return { source: sourceOf(file, call), value: call.response_body };
  }
  const value = new ExampleBuilder(components, true).build(schema, 'body');
  return matches(value) ? { source: 'built from the schema', value } : undefined;
}

/** Where the document's components live for ajv: `#/components/...` references are rewritten against it. */
const DOCUMENT_URI = 'https://openapi.invalid/openapi.json';

function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `${DOCUMENT_URI}${inner}` : absoluteRefs(inner),
      ]),
    );
  }
  return value;
}

/** Checks values against the document's schemas (JSON Schema 2020-12, its components resolved). */
export function schemaChecker(components: JsonObjectLike): (schema: JsonSchema, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_URI, components: absoluteRefs(components) });
  const compiled = new Map<JsonSchema, ReturnType<Ajv2020['compile']>>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(absoluteRefs(schema) as JsonSchema)));
    return validate(value) as boolean;
  };
}

type JsonObjectLike = Record<string, unknown>;

/** Success statuses whose JSON body gets an example. */
const SUCCESS = /^2\d\d$/;

/**
 * Puts an `example` on each operation's JSON request body and on the JSON body of each success response.
 * `bodies` gives each operation's zod body schema (by `METHOD path`), which a request example must pass.
 */
export function addExamples(
  document: { paths: Record<string, Record<string, Record<string, any>>>; components: Record<string, any> },
  bodies: Map<string, z.ZodMiniType>,
  projectRoot: string,
): void {
  const calls = loadClientCalls(projectRoot);
  const components = document.components.schemas as Record<string, JsonSchema>;
  const check = schemaChecker(document.components);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const clientCalls = clientCallsOf(calls, method.toUpperCase(), path);
      const body = bodies.get(`${method.toUpperCase()} ${path}`);
      const requestMedia = operation.requestBody?.content?.['application/json'];
      if (body && requestMedia) {
        const example = requestExample(body, requestMedia.schema, components, clientCalls, (value) => check(requestMedia.schema, value));
        if (example) requestMedia.examples = { [exampleName(example)]: { summary: example.source, value: example.value } };
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        const media = SUCCESS.test(status) ? response.content?.['application/json'] : undefined;
        if (!media) continue;
        const example = responseExample(Number(status), media.schema, components, clientCalls, (value) => check(media.schema, value));
        if (example) media.examples = { [exampleName(example)]: { summary: example.source, value: example.value } };
      }
    }
  }
}

function exampleName(example: FixtureExample): string {
  return example.source === 'built from the schema' ? 'example' : 'client';
}

/**
 * Builds the OpenAPI 3.1 document from the route table (shared/routes.ts) and each handler's `apiSpec`
 * (the zod schemas its apiHandler validates requests with, plus the response schemas it declares), so the
 * description cannot drift from what the handlers accept and answer. JSON Schemas come from zod's own
 * `z.toJSONSchema` (draft 2020-12, the dialect of OpenAPI 3.1).
 *
 * Importing every handler module is why this runs at build time (scripts/openapi.ts writes
 * docs/openapi.json) rather than inside the openapi-show function; see docs/openapi.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as z from '#shared/schemas/zod.ts';
import type { ApiSpec } from '#shared/http/handler.ts';
import { MAX_BODY_BYTES, parseRequestInputs } from '#shared/http/inputs.ts';
import { MAX_JSON_DEPTH, MAX_JSON_NODES } from '#shared/http/validation.ts';
import { pathParameterNames, routes, type CredentialKind, type Route } from '#shared/routes.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH, RETENTION_SECONDS } from '#shared/http/idempotency.ts';
import { DEPRECATION_HEADER_DESCRIPTIONS } from '#shared/http/deprecation.ts';
import { ApiError, errorDetail, type ErrorBody } from '#shared/errors.ts';
import { apiErrors } from '#shared/schemas/responses/errors.ts';
import { addExamples } from './examples.ts';
import { ModuleGraph } from './module-graph.ts';
import { namedSchemaList } from '#shared/schemas/responses/registry.ts';
import { RESPONSES, type OperationResponses } from '#shared/openapi/responses.ts';
import { EVENT_SHAPES } from '#shared/schemas/responses/event-shapes.ts';
import { EVENT_TYPES, type EventType } from '#shared/schemas/events.ts';
import { WEBHOOKS_TAG, webhooksSection } from './webhooks.ts';
import { ERROR_CODE_NAMES, ERROR_CODES } from '#shared/http/error-codes.ts';
// Every resource schema module, so each named schema is registered even if no handler imported it yet.
import '#shared/schemas/responses/addresses.ts';
import '#shared/schemas/responses/credit-cards.ts';
import '#shared/schemas/responses/users.ts';
import '#shared/schemas/responses/locations.ts';
import '#shared/schemas/responses/loyalty.ts';
import '#shared/schemas/responses/money.ts';
import '#shared/schemas/responses/order-ahead.ts';
import '#shared/schemas/responses/permissions-requests.ts';

type JsonSchema = Record<string, unknown>;
type JsonObject = Record<string, any>;

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const OPENAPI_VERSION = '3.1.0';

/** Error statuses the pipeline itself answers, as shared response components. */
interface ErrorResponseComponent {
  name: string;
  description: string;
  /** Answered without a body (no `content` in the document). */
  emptyBody?: boolean;
  /** Response headers the answer always carries, with what they say. */
  headers?: Record<string, string>;
  /** Real answers of this status, by example name: test/openapi/examples.unit.test.ts provokes them and compares. */
  examples?: Record<string, { summary: string; value: ErrorBody }>;
}

/** One error of the contract's error array, as an example. */
function errorExample(summary: string, object: string, property: string, message: string, code: string): { summary: string; value: ErrorBody } {
  return { summary, value: [{ error: errorDetail(object, property, message, code) }] };
}

const RETRY_AFTER = { 'Retry-After': 'Seconds to wait before retrying.' };

const STANDARD_ERRORS: Record<number, ErrorResponseComponent> = {
  400: {
    name: 'BadRequest',
    description: 'The request body is not valid JSON (code `malformed_json`).',
    examples: { malformed_json: errorExample('A body that is not JSON', 'request', 'body', 'The request body is not valid JSON.', 'malformed_json') },
  },
  401: {
    name: 'Unauthorized',
    description: 'No, a malformed, an invalid, expired or revoked, or the wrong kind of token, or a permission the token lacks (code `missing_permission`).',
    headers: { 'WWW-Authenticate': 'Always `Token realm="LevelUp"` (RFC 7235).' },
    examples: {
      no_token: errorExample('No Authorization header', 'access_token', 'base', 'An access token is required.', 'not_authorized'),
      invalid_token: errorExample('An unknown, expired or revoked token', 'access_token', 'base', 'The access token is invalid.', 'not_authorized'),
    },
  },
  403: {
    name: 'Forbidden',
    description:
      "A management operation (`x-roles`) called with the merchant's shared login (code `staff_login_required`) or by a staff member whose role it does not list (code `role_not_allowed`): docs/merchant-api.md.",
    examples: {
      staff_login_required: errorExample(
        "The merchant's shared login",
        'access_token',
        'role',
        "The merchant's shared login cannot use the management API; sign in as a staff member (docs/merchant-api.md).",
        'staff_login_required',
      ),
      role_not_allowed: errorExample(
        'A role the operation does not list',
        'access_token',
        'role',
        'This operation needs the owner role; this staff member is a manager.',
        'role_not_allowed',
      ),
    },
  },
  404: { name: 'NotFound', description: 'Not found, or not visible to this token. Empty body.', emptyBody: true },
  409: {
    name: 'Conflict',
    description: 'A concurrent request holds the resource (or the Idempotency-Key); retry after Retry-After seconds.',
    headers: RETRY_AFTER,
    examples: {
      in_flight: errorExample(
        'The same Idempotency-Key is still being served',
        'request',
        'base',
        'A request with this Idempotency-Key is still in progress; retry later.',
        'in_flight',
      ),
      in_progress: errorExample(
        'Another request is changing the same order',
        'order',
        'base',
        'This order is being completed by another request; retry shortly.',
        'in_progress',
      ),
    },
  },
  410: {
    name: 'Gone',
    description:
      'The operation no longer exists (it was served once); the error says what to do instead (code `gone`, e.g. Facebook login: docs/app-surface.md).',
    examples: {
      gone: errorExample(
        'Facebook login',
        'user',
        'facebook_access_token',
        'Facebook login is no longer available: sign in with your email address and password.',
        'gone',
      ),
    },
  },
  413: {
    name: 'PayloadTooLarge',
    description: `Request bodies are limited to ${MAX_BODY_BYTES} bytes (code \`too_large\`).`,
    examples: { too_large: errorExample('A body over the limit', 'request', 'body', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, 'too_large') },
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'A request body that is not JSON (code `unsupported_media_type`).',
    examples: {
      unsupported_media_type: errorExample(
        'A form-encoded body',
        'request',
        'content_type',
        'Request bodies must be JSON (Content-Type: application/json).',
        'unsupported_media_type',
      ),
    },
  },
  422: {
    name: 'UnprocessableEntity',
    description: `Validation failed: each error names the object (the request wrapper key) and property. A body nesting objects and arrays more than ${MAX_JSON_DEPTH} levels deep, or holding more than ${MAX_JSON_NODES} values, is refused before any validation (object \`request\`, property \`body\`, code \`too_deep\` or \`too_many_values\`).`,
    examples: {
      too_deep: errorExample(
        'A body nested too deep',
        'request',
        'body',
        `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
        'too_deep',
      ),
    },
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Throttled (code `throttled`) or over a limit of this operation (codes `rate_limited`, `login_locked`, `too_many_failed_logins`, `manager_confirmation_locked`; docs/security.md); retry after the Retry-After interval.',
    headers: RETRY_AFTER,
    examples: {
      throttled: errorExample(
        'Too many requests from one credential or address',
        'request',
        'base',
        'Too many requests; retry after the Retry-After interval.',
        'throttled',
      ),
    },
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'A part this request needs is down for a moment, or the request outlived its time limit (code `timeout`: it may still complete; retry, with the same Idempotency-Key where it has one, to learn its outcome). Retry after Retry-After seconds.',
    headers: RETRY_AFTER,
    examples: {
      timeout: errorExample(
        'The request outlived its time limit',
        'request',
        'base',
        'The request took too long to finish. It may still complete: retry it, with the same Idempotency-Key where it has one, to learn its outcome.',
        'timeout',
      ),
    },
  },
  500: {
    name: 'InternalError',
    description: 'Something went wrong on our side; the X-Request-Id header identifies the request (code `internal_error`).',
    examples: {
      internal_error: errorExample(
        'An unexpected failure',
        'request',
        'base',
        'Something went wrong on our side. The request id identifies it.',
        'internal_error',
      ),
    },
  },
};

/** Any other error an operation answers: the contract's error array. */
const DEFAULT_ERROR = 'Error';

/** The 404 of the routes whose not-found answer is an error array (their spec's `notFound`). */
const NOT_FOUND_WITH_ERRORS: ErrorResponseComponent = {
  name: 'NotFoundWithErrors',
  description: 'Not found, or not visible to this token: an error array naming what was not found.',
  examples: { not_found: errorExample("A credit card that is not the token user's", 'credit_card', 'id', 'Credit card not found.', 'not_found') },
};

/** What a request that no route serves gets (functions/route-not-found.ts, API Gateway's `$default`). */
const ROUTE_NOT_FOUND = 'RouteNotFound';

/**
 * Permissions are not OAuth scopes (an apiKey scheme has none): an operation names the ones its token must
 * hold in `x-permissions` and in its description, and its security requirements list no scopes.
 */
const PERMISSIONS_TEXT = 'The permissions an operation requires are listed in its description and its `x-permissions` extension.';

const SECURITY_SCHEMES = {
  userToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'A user access token: `Authorization: token <USER_TOKEN>` or `token user="<USER_TOKEN>"`. Both kinds in one header: ' +
      '`token merchant="<MERCHANT_TOKEN>", user="<USER_TOKEN>"`. ' +
      PERMISSIONS_TEXT,
  },
  appToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'An app access token (from POST /v15/access_tokens with api_key and client_secret): `Authorization: token <APP_TOKEN>`.',
  },
  merchantToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'A merchant access token: `Authorization: token <MERCHANT_TOKEN>` or `token merchant="<MERCHANT_TOKEN>"`. ' + PERMISSIONS_TEXT,
  },
};

const CREDENTIAL_TEXT: Record<CredentialKind, string> = {
  none: 'No credential.',
  user: 'A user token.',
  merchant: 'A merchant token.',
  'user-optional': "Optional user token: with one, that user's view; without, an anonymous one.",
  'user-unlimited': 'A user token granted by username and password (an unlimited token; a downgraded one is refused with 401).',
  app: 'An app token (POST /v15/access_tokens with api_key and client_secret).',
  'app-optional': 'Optional app token; without a valid one (any other header is ignored), the api_key in the body names the app.',
  any: 'A user, merchant or app token.',
  'merchant-or-app': "A merchant token (the merchant's events) or an app token (the app's users' events).",
};

function security(route: Route): JsonObject[] {
  const scopes: string[] = [];
  switch (route.credential) {
    case 'none':
      return [];
    case 'user':
    case 'user-unlimited':
      return [{ userToken: scopes }];
    case 'merchant':
      return [{ merchantToken: scopes }];
    case 'user-optional':
      return [{}, { userToken: scopes }];
    case 'app':
      return [{ appToken: [] }];
    case 'app-optional':
      return [{}, { appToken: [] }];
    case 'any':
      return [{ userToken: scopes }, { merchantToken: scopes }, { appToken: [] }];
    case 'merchant-or-app':
      return [{ merchantToken: scopes }, { appToken: [] }];
  }
}

/** `users-show` -> `UsersShow`. */
function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** The handler's spec, read from the module the route is served by. */
export async function loadApiSpec(route: Route): Promise<ApiSpec> {
  const module = (await import(pathToFileURL(join(PROJECT_ROOT, 'functions', `${route.handler}.ts`)).href)) as { handler?: { apiSpec?: ApiSpec } };
  const spec = module.handler?.apiSpec;
  if (!spec) throw new Error(`functions/${route.handler}.ts is not built with apiHandler (no apiSpec to document)`);
  return spec;
}

/** Error statuses an operation can answer besides those it declares, from what the pipeline does for its route. */
function pipelineErrorStatuses(route: Route, spec: ApiSpec): number[] {
  // Every route may outlive its Lambda timeout: 503 `timeout` (shared/http/response.ts).
  const statuses = [400, 413, 415, 429, 500, 503];
  // An optional app token that is not one is ignored, never refused (shared/http/admission.ts): no 401 to document,
  // which the mobile SDKs would read as 'log in again' (issue 34.9).
  if (route.credential !== 'none' && route.credential !== 'app-optional') statuses.push(401);
  // A management route refuses the shared login and a role it does not list (shared/http/admission.ts `admitStaff`).
  if (route.roles || route.staffRoles) statuses.push(403);
  if (pathParameterNames(route.path).length > 0 || spec.notFound) statuses.push(404);
  if (spec.body || spec.query) statuses.push(422);
  return statuses;
}

/**
 * Converts zod schemas with one registry (so shared and recursive schemas become components) and
 * returns each registered schema's JSON Schema; zod's `__shared` definitions are hoisted into named
 * components with `prefix`.
 */
function convert(entries: { id: string; schema: z.ZodMiniType; description?: string }[], io: 'input' | 'output', prefix: string) {
  const registry = z.registry<{ id: string; description?: string }>();
  for (const entry of entries) registry.add(entry.schema, { id: entry.id, ...(entry.description ? { description: entry.description } : {}) });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas: Record<string, JsonSchema> = {};
  const hoisted = new Map<string, string>();
  const shared = (converted.schemas.__shared?.$defs ?? {}) as Record<string, JsonSchema>;
  for (const name of Object.keys(shared)) hoisted.set(`#/components/schemas/__shared#/$defs/${name}`, `#/components/schemas/${prefix}${pascal(name)}`);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: JsonObject = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$schema' || key === '$id') continue;
        out[key] = key === '$ref' && typeof inner === 'string' ? (hoisted.get(inner) ?? inner) : rewrite(inner);
      }
      return out;
    }
    return value;
  };
  for (const [id, schema] of Object.entries(converted.schemas)) if (id !== '__shared') schemas[id] = rewrite(schema) as JsonSchema;
  for (const [name, schema] of Object.entries(shared)) schemas[`${prefix}${pascal(name)}`] = rewrite(schema) as JsonSchema;
  return schemas;
}

/** `contentMediaType` on a string schema (or on branches of a union; the others are JSON) makes a non-JSON response. */
function mediaTypesOf(schema: JsonSchema): { mediaType: string; schema: JsonSchema }[] | undefined {
  if (typeof schema.contentMediaType === 'string') return [{ mediaType: schema.contentMediaType, schema }];
  const branches = schema.anyOf as JsonSchema[] | undefined;
  // A union with media-typed branches is content negotiation (Accept): the other branch is the JSON answer.
  if (branches?.some((branch) => typeof branch.contentMediaType === 'string')) {
    return branches.map((branch) => ({
      mediaType: typeof branch.contentMediaType === 'string' ? branch.contentMediaType : 'application/json',
      schema: branch,
    }));
  }
  return undefined;
}

/**
 * Where the API is served: a deployment (the stack's `ApiUrl` output, its CloudFront URL, or the custom
 * domain its PUBLIC_BASE_URL names: docs/operations.md) and `npm start`. GET /openapi.json answers with
 * the base URL it was asked on instead (functions/openapi-show.ts).
 */
export const SERVERS = [
  {
    url: '{apiUrl}',
    description: 'A deployment of the stack',
    variables: {
      apiUrl: { default: 'https://d111111abcdef8.cloudfront.net', description: "The stack's ApiUrl output (its CloudFront URL), or its custom domain." },
    },
  },
  { url: 'http://127.0.0.1:3000', description: 'The local gateway (`npm start`)' },
];

/** The module that reads the Idempotency-Key header: an operation whose handler reaches it honours the key. */
const IDEMPOTENCY_ADAPTER = 'shared/http/idempotency.ts';

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    `A key of your choice (1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters; a UUID v4 serves) that makes a retry safe: the same key with the same request and credentials ` +
    `within ${RETENTION_SECONDS / 86_400} days answers the first answer again (with \`Idempotent-Replayed: true\`) and moves no money twice; with another body, 422 ` +
    '`request/idempotency_key/mismatch`; from other credentials, 422 `other_caller`; while the first is still being served, 409 `in_flight` with Retry-After.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  example: '5c1f9a7e-2b4d-4e8a-9f3c-7d6e1a2b3c4d',
};

/** The header every page of a paged list carries (docs/app-surface.md "Paging"). */
const PAGED_LINK_HEADER = {
  Link: {
    description:
      '`<url>; rel="next"`: the absolute URL of the page after this one, carrying the request\'s filters. On every page with items, the last one too; that URL answers 204 (no body, no Link) until more items follow it.',
    schema: { type: 'string' },
  },
};

/** The Deprecation and Sunset headers every answer of a deprecated operation carries (shared/http/deprecation.ts). */
const DEPRECATION_RESPONSE_HEADERS = Object.fromEntries(
  Object.entries(DEPRECATION_HEADER_DESCRIPTIONS).map(([name, description]) => [name, { description, required: true, schema: { type: 'string' } }]),
);

/** A success answer's own headers: a paged list's Link, a deprecated operation's Deprecation and Sunset. */
function successHeaders(status: number, spec: { paged?: boolean; deprecated?: boolean }): { headers?: JsonObject } {
  const headers = { ...(status === 200 && spec.paged ? PAGED_LINK_HEADER : {}), ...(spec.deprecated ? DEPRECATION_RESPONSE_HEADERS : {}) };
  return Object.keys(headers).length > 0 ? { headers } : {};
}

function describeStatus(status: number): string {
  if (status === 200) return 'OK';
  if (status === 202) return 'Accepted: still being processed; poll again. Empty body.';
  if (status === 204) return 'No Content: nothing (more) to show. Empty body, no Link header.';
  if (status === 302) return 'Found: the `Location` header is a short-lived signed URL of the image at the asked size. Empty body.';
  return STANDARD_ERRORS[status]?.description ?? `HTTP ${status}`;
}

export interface OpenApiDocument {
  openapi: string;
  info: JsonObject;
  paths: Record<string, Record<string, JsonObject>>;
  /** One entry per event type: what a webhook delivery POSTs (shared/openapi/webhooks.ts). */
  webhooks: Record<string, JsonObject>;
  components: JsonObject;
  [key: string]: unknown;
}

/**
 * The operation's own 422, as the request pipeline's input validation answers it (parseRequestInputs, no
 * table or token): to an empty body, else to a query whose every parameter is `-1`. Undefined when neither fails.
 */
function validationExample(spec: ApiSpec, queryNames: string[]): { summary: string; value: ErrorBody } | undefined {
  const attempts: [string, Parameters<typeof parseRequestInputs>[1]][] = [['An empty body', { body: {} }]];
  if (queryNames.length > 0) attempts.push(['Every query parameter -1', { queryStringParameters: Object.fromEntries(queryNames.map((name) => [name, '-1'])) }]);
  for (const [summary, event] of attempts) {
    try {
      parseRequestInputs({ body: spec.body, bodyObject: spec.bodyObject, query: spec.query }, event);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && error.body()) return { summary, value: error.body()! };
    }
  }
  return undefined;
}

/** The routes whose handler code reads the Idempotency-Key header (through the adapter, directly or via a shared serve function). */
export function routesHonouringIdempotencyKey(): Route[] {
  const graph = new ModuleGraph(PROJECT_ROOT);
  return routes.filter((route) => graph.reachableFrom(`functions/${route.handler}.ts`).has(IDEMPOTENCY_ADAPTER));
}

/** What the route's operation answers (shared/openapi/responses.ts): every route has its row. */
function responsesOf(route: Route): OperationResponses {
  const responses = RESPONSES[route.handler];
  if (!responses) throw new Error(`shared/openapi/responses.ts has no row for ${route.handler}`);
  return responses;
}

/** The whole document. Deterministic: same route table and schemas, same JSON. */
export async function buildDocument(): Promise<OpenApiDocument> {
  const specs = new Map<Route, ApiSpec>();
  for (const route of routes) specs.set(route, await loadApiSpec(route));
  const keyed = new Set(routesHonouringIdempotencyKey());

  // Responses (output mode): every named resource, plus each operation's own response schema under a temporary id.
  const namedSchemas = namedSchemaList();
  const outputEntries: { id: string; schema: z.ZodMiniType; description?: string }[] = [...namedSchemas];
  const responseIds = new Map<z.ZodMiniType, string>();
  for (const named of namedSchemas) responseIds.set(named.schema, named.id);
  const inputEntries: { id: string; schema: z.ZodMiniType }[] = [];
  const requestIds = new Map<z.ZodMiniType, string>();
  for (const [route, spec] of specs) {
    for (const [status, schema] of Object.entries(responsesOf(route))) {
      if (schema && !responseIds.has(schema)) {
        const id = `${pascal(route.handler)}${status}Response`;
        responseIds.set(schema, id);
        outputEntries.push({ id, schema });
      }
    }
    for (const [part, schema] of [
      ['Body', spec.body],
      ['Query', spec.query],
    ] as const) {
      if (schema && !requestIds.has(schema)) {
        const id = `${pascal(route.handler)}${part}`;
        requestIds.set(schema, id);
        inputEntries.push({ id, schema });
      }
    }
  }
  // Each webhook's body, `{"event": <the type's shape>}`, written inline like an operation's own response.
  const webhookBodyId = (type: EventType) => `Webhook${pascal(type)}Body`;
  for (const type of EVENT_TYPES) outputEntries.push({ id: webhookBodyId(type), schema: z.object({ event: EVENT_SHAPES[type] }) });
  const outputSchemas = convert(outputEntries, 'output', 'Shared');
  const inputSchemas = convert(inputEntries, 'input', 'SharedInput');
  const namedIds = new Set(namedSchemas.map((entry) => entry.id));
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(outputSchemas)) if (namedIds.has(id) || id.startsWith('Shared')) components[id] = schema;
  for (const [id, schema] of Object.entries(inputSchemas)) if (id.startsWith('SharedInput')) components[id] = schema;

  /** Named resources are referenced; an operation's own schemas are written inline. */
  const responseSchema = (schema: z.ZodMiniType): JsonSchema => {
    const id = responseIds.get(schema)!;
    return namedIds.has(id) ? { $ref: `#/components/schemas/${id}` } : outputSchemas[id]!;
  };

  const paths: OpenApiDocument['paths'] = {};
  for (const [route, spec] of specs) {
    const responses: Record<string, JsonObject> = {};
    const declared = Object.entries(responsesOf(route)).map(([status, schema]) => [Number(status), schema] as const);
    // An operation that is gone for good (410) has no success to declare.
    if (!declared.some(([status]) => status < 400 || status === 410))
      throw new Error(`The responses of ${route.handler} (shared/openapi/responses.ts) declare no success`);
    for (const [status, schema] of declared) {
      // A route with path parameters gets its 404 from the pipeline; one without (a user's single pending
      // record, say) declares its empty 404 as `404: null`.
      if (status === 404 && (schema !== null || pathParameterNames(route.path).length > 0)) {
        throw new Error(`The responses of ${route.handler} declare a 404: set its spec's notFound instead (or nothing, for an empty 404)`);
      }
      if (status === 404) {
        responses[status] = { $ref: `#/components/responses/${STANDARD_ERRORS[404]!.name}` };
        continue;
      }
      if (schema === apiErrors && STANDARD_ERRORS[status]) {
        responses[status] = { $ref: `#/components/responses/${STANDARD_ERRORS[status].name}` };
      } else if (schema === null) {
        responses[status] = { description: describeStatus(status) };
      } else {
        const json = responseSchema(schema);
        const media = mediaTypesOf(json);
        responses[status] = {
          description: describeStatus(status),
          ...successHeaders(status, spec),
          content: media ? Object.fromEntries(media.map((entry) => [entry.mediaType, { schema: entry.schema }])) : { 'application/json': { schema: json } },
        };
      }
    }
    for (const status of pipelineErrorStatuses(route, spec)) {
      const component = status === 404 && spec.notFound ? NOT_FOUND_WITH_ERRORS : STANDARD_ERRORS[status]!;
      responses[status] ??= { $ref: `#/components/responses/${component.name}` };
    }
    responses.default = { $ref: `#/components/responses/${DEFAULT_ERROR}` };
    const queryNames = spec.query ? Object.keys(inputSchemas[requestIds.get(spec.query)!]!.properties ?? {}) : [];
    const ownValidation = responses[422] ? validationExample(spec, queryNames) : undefined;
    if (ownValidation) {
      // This operation's own 422 first, then the pipeline's shared ones.
      const shared = STANDARD_ERRORS[422]!;
      responses[422] = {
        description: shared.description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' }, examples: { validation: ownValidation, ...shared.examples } } },
      };
    }

    const parameters: JsonObject[] = pathParameterNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (keyed.has(route)) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (spec.query) {
      const query = inputSchemas[requestIds.get(spec.query)!]!;
      const required = new Set((query.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
        parameters.push({ name, in: 'query', required: required.has(name), schema });
      }
    }

    const permissions = route.permissions ?? [];
    const description = [
      spec.description,
      `Credential: ${CREDENTIAL_TEXT[route.credential]}`,
      permissions.length > 0 ? `Permissions: ${permissions.map((permission) => `\`${permission}\``).join(', ')}.` : undefined,
      route.roles ? `Staff roles: ${route.roles.join(', ')} (docs/merchant-api.md).` : undefined,
      route.staffRoles ? `A staff member's token needs the role ${route.staffRoles.join(' or ')}; app tokens and the shared login are not staff.` : undefined,
    ]
      .filter((line) => line !== undefined)
      .join('\n\n');

    const operation: JsonObject = {
      operationId: route.handler,
      summary: spec.summary ?? `${route.method} ${route.path}`,
      description,
      ...(spec.deprecated ? { deprecated: true } : {}),
      tags: [tagOf(route)],
      security: security(route),
      ...(permissions.length > 0 ? { 'x-permissions': permissions } : {}),
      ...(route.roles ? { 'x-roles': route.roles } : {}),
      ...(route.staffRoles ? { 'x-staff-roles': route.staffRoles } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: !spec.body.safeParse(undefined).success,
              content: { 'application/json': { schema: inputSchemas[requestIds.get(spec.body)!]! } },
            },
          }
        : {}),
      // Statuses in order, `default` last.
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => (a === 'default' ? 1 : b === 'default' ? -1 : Number(a) - Number(b)))),
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  const errorResponses: Record<string, JsonObject> = {};
  for (const { name, description, emptyBody, headers, examples } of [...Object.values(STANDARD_ERRORS), NOT_FOUND_WITH_ERRORS]) {
    const documentedHeaders = headers && {
      headers: Object.fromEntries(Object.entries(headers).map(([header, text]) => [header, { description: text, required: true, schema: { type: 'string' } }])),
    };
    errorResponses[name] = emptyBody
      ? { description, ...documentedHeaders }
      : {
          description,
          ...documentedHeaders,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' }, ...(examples ? { examples } : {}) } },
        };
  }
  errorResponses[DEFAULT_ERROR] = {
    description: "Any other error: the contract's error array, each error naming its object, property, message and code.",
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
  };
  errorResponses[ROUTE_NOT_FOUND] = {
    description:
      'No route serves the method and path: 404 (code `not_found`), or 405 with an Allow header when the path is served for other methods (code `method_not_allowed`).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
  };

  // The catalogue (shared/http/error-codes.ts) is the only codes an error carries: every response of the suite is checked against it.
  const errorDetailSchema = components.ErrorDetail!;
  errorDetailSchema.properties = {
    ...(errorDetailSchema.properties as JsonObject),
    code: { type: 'string', enum: ERROR_CODE_NAMES, description: 'Stable machine-readable code: one of `x-error-codes` (docs/errors.md).' },
  };

  const { webhooks, parameters: webhookParameters } = webhooksSection((type) => outputSchemas[webhookBodyId(type)]!);

  const packageJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; description: string };
  const document: OpenApiDocument = {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Loyalty, Rewards, Orders and Payments Service API',
      version: packageJson.version,
      description: INFO_DESCRIPTION,
    },
    servers: SERVERS,
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      responses: errorResponses,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER, ...webhookParameters },
      securitySchemes: SECURITY_SCHEMES,
    },
    'x-fallback-response': { $ref: `#/components/responses/${ROUTE_NOT_FOUND}` },
    'x-error-codes': Object.fromEntries(ERROR_CODE_NAMES.map((code) => [code, ERROR_CODES[code]])),
  };
  const bodies = new Map([...specs].flatMap(([route, spec]) => (spec.body ? [[`${route.method} ${route.path}`, spec.body] as const] : [])));
  addExamples(document, bodies, PROJECT_ROOT);
  return document;
}

const INFO_DESCRIPTION = [
  'Loyalty campaigns, gift cards, in-store and order ahead orders, payment methods, rewards and locations.',
  'Request and response bodies are JSON (`Accept: application/json`, `Content-Type: application/json`); each resource is wrapped in an object keyed by its name, and lists are arrays of wrapped objects. Amounts named `*_amount` are integer cents; timestamps are ISO 8601 to the second with a numeric UTC offset (`2015-01-22T16:29:22+00:00`); requests may send `Z` or any offset.',
  'Errors are a JSON array of `{"error": {"object", "property", "message", "code"}}`. A 404 has an empty body (response `NotFound`) except on the operations whose 404 names what was not found (response `NotFoundWithErrors`). A request no route serves gets 404, or 405 with an Allow header (`x-fallback-response`). Each `code` is one of `x-error-codes`, which says with which statuses, when, and what to do.',
  'Paged lists answer every page that has items with 200 and a `Link: <url>; rel="next"` header to the page after it (an absolute URL carrying the request\'s filters), the last page too; the page after the last item answers 204 (no body, no Link). Follow Link until 204; a stored Link asked again later answers what came since (200) or 204. Money operations honour an `Idempotency-Key` header.',
  'The version is the first path segment (`/v15`, and `/v14` for refund, create user and delete credit card).',
].join('\n\n');

const TAGS: [string, string][] = [
  ['Access tokens', 'Log in and downgrade tokens'],
  ['Users', 'Users, their addresses, payment methods and QR code'],
  ['Locations', "An app's merchant locations"],
  ['Money', 'Gift cards, in-store orders, refunds and users’ orders'],
  ['Loyalty', 'Campaigns, claims, unlocks and rewards'],
  ['Order ahead', 'Menus, order ahead orders and upsells'],
  ['Point of sale', 'What POS integrations read and publish beyond orders: managed locations, location details, contribution targets, remote checks'],
  ['Merchant management', "The merchant's own management API (docs/merchant-api.md): manager codes, reports, exports and the audit log"],
  ['API description', 'This document and its docs page'],
  [WEBHOOKS_TAG, 'Events POSTed to your webhook endpoints, signed (docs/events.md): one entry per event type'],
];

function tagOf(route: Route): string {
  const path = route.path;
  if (route.roles) return 'Merchant management';
  if (path.startsWith('/v15/access_tokens')) return 'Access tokens';
  if (/^\/v1[45]\/(users|user_addresses|credit_cards|payment_token)/.test(path)) return 'Users';
  if (/^\/v1[45]\/(managed_locations|locations\/\{location_id\}$|contributions|checks)/.test(path)) return 'Point of sale';
  if (path.endsWith('/locations')) return 'Locations';
  if (
    /gift_card|proposed_orders|completed_orders|\/orders|merchant_funded_credit|detached_refunds|qr_code_validations|\/credit$/.test(path) &&
    !path.includes('order_ahead')
  )
    return 'Money';
  if (/campaign|codes|loyalties|rewards|progress_adjustments/.test(path)) return 'Loyalty';
  if (/order_ahead|upsells/.test(path)) return 'Order ahead';
  return 'API description';
}

/** The committed file's text: two-space JSON with a final newline. */
export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

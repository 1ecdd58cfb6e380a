/**
 * What an integrator reads in the API reference beyond the schemas (issue 37): servers, the Idempotency-Key
 * header, Link and Retry-After headers, deprecation, a default error response, and each error status's own
 * example, which the running API must answer word for word.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, loadApiSpec, routesHonouringIdempotencyKey, type OpenApiDocument } from '#shared/openapi/document.ts';
import { MAX_BODY_BYTES } from '#shared/http/inputs.ts';
import { MAX_JSON_DEPTH } from '#shared/http/validation.ts';
import { routes, type Route } from '#shared/routes.ts';
import { useTestApi } from '../support/api.ts';
import { appFixture, merchantFixture, userFixture } from '../support/fixtures.ts';
import { compileDocumentSchema, documentAjv } from './response-validator.ts';

type JsonObject = Record<string, any>;

let document: OpenApiDocument;
const api = useTestApi();

beforeAll(async () => {
  document = await buildDocument();
});

const operationOf = (route: Pick<Route, 'method' | 'path'>): JsonObject => document.paths[route.path]![route.method.toLowerCase()]!;
const operationName = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** A response or parameter, with a `$ref` to a component followed. */
function resolved(value: JsonObject): JsonObject {
  if (typeof value.$ref !== 'string') return value;
  let target: unknown = document;
  for (const segment of value.$ref.slice(2).split('/')) target = (target as JsonObject)[segment];
  return target as JsonObject;
}

describe('servers', () => {
  it('names a deployment (its base URL as a variable) and the local gateway', () => {
    const servers = document.servers as { url: string; variables?: Record<string, { default: string }> }[];
    expect(servers.map((server) => server.url)).toEqual(['{apiUrl}', 'http://127.0.0.1:3000']);
    expect(servers[0]!.variables!.apiUrl!.default).toMatch(/^https:\/\/[a-z0-9.-]+$/);
  });
});

describe('the Idempotency-Key header', () => {
  const declaresKey = (operation: JsonObject) =>
    ((operation.parameters ?? []) as JsonObject[]).some((parameter) => resolved(parameter).name === 'Idempotency-Key');

  it('is a parameter of exactly the operations whose handler code reads it', () => {
    const keyed = routes.filter((route) => declaresKey(operationOf(route))).map(operationName);
    expect(keyed.sort()).toEqual(routesHonouringIdempotencyKey().map(operationName).sort());
    // The money operations the contract and the SDKs send it on, among them.
    expect(keyed).toEqual(
      expect.arrayContaining([
        'POST /v15/proposed_orders',
        'POST /v15/completed_orders',
        'POST /v15/orders',
        'POST /v14/orders/{uuid}/refund',
        'POST /v15/orders/{uuid}/refund',
        'POST /v15/detached_refunds',
        'POST /v15/merchants/{merchant_id}/gift_card_value_additions',
        'POST /v15/merchants/{merchant_id}/gift_card_value_removals',
      ]),
    );
    for (const route of routes) if (route.method === 'GET') expect(declaresKey(operationOf(route)), operationName(route)).toBe(false);
  });

  it('is an optional header of 1 to 255 characters', () => {
    const parameter = document.components.parameters.IdempotencyKey;
    expect(parameter).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
    expect(parameter.description).toContain('Idempotent-Replayed');
  });
});

describe('response headers', () => {
  it('declare Link on the 200 of every paged list', async () => {
    const paged: string[] = [];
    for (const route of routes) {
      if (!(await loadApiSpec(route)).paged) continue;
      paged.push(operationName(route));
      expect(resolved(operationOf(route).responses['200']).headers?.Link, operationName(route)).toMatchObject({ schema: { type: 'string' } });
    }
    expect(paged).toEqual(
      expect.arrayContaining(['GET /v15/apps/orders', 'GET /v15/apps/{app_id}/locations', 'GET /v15/events', 'GET /v15/users/gift_card_value_orders']),
    );
  });

  it('declare Retry-After on every 409, 429 and 503, and WWW-Authenticate on every 401', () => {
    const required = { 401: 'WWW-Authenticate', 409: 'Retry-After', 429: 'Retry-After', 503: 'Retry-After' } as Record<string, string>;
    let checked = 0;
    for (const route of routes) {
      for (const [status, response] of Object.entries(operationOf(route).responses as Record<string, JsonObject>)) {
        const header = required[status];
        if (!header) continue;
        expect(resolved(response).headers?.[header], `${operationName(route)} ${status}`).toMatchObject({ required: true });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(routes.length);
  });
});

describe('deprecation', () => {
  it('marks deprecated operations with deprecated: true, and no summary says it in words', async () => {
    const deprecated: string[] = [];
    for (const route of routes) {
      const operation = operationOf(route);
      expect(operation.summary, operationName(route)).not.toMatch(/deprecated/i);
      expect(operation.deprecated ?? false).toBe((await loadApiSpec(route)).deprecated ?? false);
      if (operation.deprecated) deprecated.push(operationName(route));
    }
    expect(deprecated.sort()).toEqual([
      'GET /v14/locations/{location_id}/merchant_funded_credit',
      'GET /v15/locations/{location_id}/merchant_funded_credit',
      'POST /v14/locations/{location_id}/merchant_funded_credit',
      'POST /v14/orders',
      'POST /v15/locations/{location_id}/merchant_funded_credit',
      'POST /v15/orders',
    ]);
  });
});

describe('error responses', () => {
  it('include a default error response on every operation', () => {
    for (const route of routes) expect(operationOf(route).responses.default, operationName(route)).toEqual({ $ref: '#/components/responses/Error' });
    expect(document.components.responses.Error.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Errors' });
  });

  it('show each error status with a body its own examples, in the error format', () => {
    const validate = compileDocumentSchema(documentAjv(document), { $ref: '#/components/schemas/Errors' });
    const shown = new Set<string>();
    for (const [name, response] of Object.entries(document.components.responses as Record<string, JsonObject>)) {
      const media = response.content?.['application/json'];
      if (!media || name === 'Error' || name === 'RouteNotFound') continue;
      const examples = Object.values((media.examples ?? {}) as Record<string, { value: unknown }>);
      expect(examples.length, name).toBeGreaterThan(0);
      for (const { value } of examples) {
        expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        shown.add(JSON.stringify(value));
      }
    }
    // One status's example is never another's.
    expect(shown.size).toBeGreaterThanOrEqual(Object.keys(document.components.responses).length - 3);
  });
});

describe('the error examples are what the API answers', () => {
  const exampleOf = (component: string, name: string) => document.components.responses[component].content['application/json'].examples[name].value;
  let userToken: string;
  let merchantToken: string;

  beforeAll(async () => {
    const app = await appFixture();
    userToken = (await userFixture(app.app.app_id)).token;
    merchantToken = (await merchantFixture(app.app.app_id)).token;
  });

  it('400 malformed_json', async () => {
    const response = await api.call('POST', '/v15/user_addresses', { token: userToken, rawBody: '{"user_address": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(exampleOf('BadRequest', 'malformed_json'));
  });

  it('401 without a token, and with a token that is not one', async () => {
    const missing = await api.call('GET', '/v15/users');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(exampleOf('Unauthorized', 'no_token'));
    const invalid = await api.call('GET', '/v15/users', { token: 'a'.repeat(40) });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toEqual(exampleOf('Unauthorized', 'invalid_token'));
  });

  it('404 with the error array', async () => {
    const response = await api.call('DELETE', '/v14/credit_cards/987654321', { token: userToken });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(exampleOf('NotFoundWithErrors', 'not_found'));
  });

  it('410 gone', async () => {
    const response = await api.call('POST', '/v14/facebook_connection', { body: { facebook_connection: { facebook_access_token: 'EAAB' } } });
    expect(response.status).toBe(410);
    expect(response.body).toEqual(exampleOf('Gone', 'gone'));
  });

  it('413 too_large', async () => {
    const response = await api.call('POST', '/v15/user_addresses', { token: userToken, rawBody: JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES) }) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(exampleOf('PayloadTooLarge', 'too_large'));
  });

  it('415 unsupported_media_type', async () => {
    const response = await api.call('POST', '/v15/user_addresses', {
      token: userToken,
      rawBody: 'street_address=1+Main+St',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(exampleOf('UnsupportedMediaType', 'unsupported_media_type'));
  });

  it("422: an operation's own validation answer, to an empty body and to bad query parameters", async () => {
    const ownExample = (method: string, path: string) => document.paths[path]![method]!.responses['422'].content['application/json'].examples.validation.value;
    const emptyBody = await api.call('POST', '/v15/completed_orders', { token: merchantToken, body: {} });
    expect(emptyBody.status).toBe(422);
    expect(emptyBody.body).toEqual(ownExample('post', '/v15/completed_orders'));
    const badQuery = await api.call('GET', '/v15/apps/orders?page=-1&cursor=-1', { token: userToken });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body).toEqual(ownExample('get', '/v15/apps/orders'));
  });

  it('422 too_deep', async () => {
    let deep: unknown = 1;
    for (let level = 0; level <= MAX_JSON_DEPTH; level += 1) deep = [deep];
    const response = await api.call('POST', '/v15/user_addresses', { token: userToken, body: { user_address: deep } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(exampleOf('UnprocessableEntity', 'too_deep'));
  });
});

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, serializeDocument, type OpenApiDocument } from '#shared/openapi/document.ts';
import { routes } from '#shared/routes.ts';
import { RESPONSES } from '#shared/openapi/responses.ts';
import { useTestApi } from '../support/api.ts';
import { compileDocumentSchema, documentAjv, validateResponse } from './response-validator.ts';

let document: OpenApiDocument;
const api = useTestApi();

beforeAll(async () => {
  document = await buildDocument();
});

describe('the OpenAPI document', () => {
  it('is the committed docs/openapi.json (run `npm run openapi` after changing a route or a schema)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(serializeDocument(document));
  });

  it('has one row of responses per route in shared/openapi/responses.ts, and no row for a handler that serves none', () => {
    expect(Object.keys(RESPONSES).sort()).toEqual(routes.map((route) => route.handler).sort());
  });

  it('is OpenAPI 3.1 with one operation per route, each with an operationId, summary and a success response', () => {
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(
      routes.map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const { operation } of operations) {
      expect(operation.operationId).toMatch(/^[a-z0-9-]+$/);
      expect(operation.summary).toBeTruthy();
      // 302: the image redirects; 410 alone: an operation gone for good (Facebook link, docs/app-surface.md)
      expect(
        Object.keys(operation.responses).some(
          (status) =>
            Number(status) < 300 ||
            Number(status) === 302 ||
            (Number(status) === 410 && !Object.keys(operation.responses).some((other) => Number(other) < 400)),
        ),
      ).toBe(true);
    }
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
  });

  it('lists the credential of each route as security requirements, and its permissions as x-permissions (never as API-key scopes)', () => {
    for (const route of routes) {
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      const schemes = (operation.security as Record<string, string[]>[]).flatMap((requirement) => Object.entries(requirement));
      if (route.credential === 'none') expect(operation.security).toEqual([]);
      else expect(schemes.length).toBeGreaterThan(0);
      for (const [, scopes] of schemes) expect(scopes).toEqual([]);
      const permissions = [...(route.permissions ?? [])];
      if (permissions.length > 0) {
        expect(operation['x-permissions']).toEqual(permissions);
        for (const permission of permissions) expect(operation.description).toContain(`\`${permission}\``);
      } else {
        expect(operation['x-permissions']).toBeUndefined();
      }
      // A user creation whose optional app token is ignored when invalid never answers 401 (issue 34.9).
      if (route.credential === 'app-optional') expect(operation.responses['401'], route.path).toBeUndefined();
      else if (route.credential !== 'none') expect(operation.responses['401'], route.path).toBeDefined();
    }
  });

  it('has JSON Schemas (draft 2020-12) that compile, and only references that resolve', () => {
    const ajv = documentAjv(document);
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, object>)) {
      expect(() => compileDocumentSchema(ajv, schema), name).not.toThrow();
    }
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        for (const response of Object.values(operation.responses as Record<string, { content?: Record<string, { schema: object }> }>)) {
          for (const media of Object.values(response.content ?? {})) expect(() => compileDocumentSchema(ajv, media.schema)).not.toThrow();
        }
        for (const parameter of (operation.parameters ?? []) as { schema?: object }[])
          if (parameter.schema) expect(() => compileDocumentSchema(ajv, parameter.schema!)).not.toThrow();
        const body = operation.requestBody?.content?.['application/json']?.schema as object | undefined;
        if (body) expect(() => compileDocumentSchema(ajv, body)).not.toThrow();
      }
    }
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      let target: unknown = document;
      for (const segment of pointer) target = (target as Record<string, unknown> | undefined)?.[segment];
      expect(target, ref).toBeDefined();
    }
  });
});

describe("the document's timestamps", () => {
  it('hold every answered datetime to YYYY-MM-DDThh:mm:ss±hh:mm, never Z', () => {
    const validate = compileDocumentSchema(documentAjv(document), { $ref: '#/components/schemas/Timestamp' });
    expect(validate('2015-01-22T16:29:22+00:00')).toBe(true);
    expect(validate('2015-01-22T11:29:22-05:00')).toBe(true);
    for (const wrong of ['2015-01-22T16:29:22Z', '2015-01-22T16:29:22.000+00:00', '2015-01-22 16:29:22+00:00', '2015-01-22'])
      expect(validate(wrong), wrong).toBe(false);
    expect(JSON.stringify(document.paths)).not.toContain('"format":"date-time"');
  });
});

describe("the document's 404s", () => {
  const notFoundOf = (method: string, path: string) => document.paths[path]![method]!.responses['404'];

  it("show the contract's empty-body 404s without a body", () => {
    const empty = { $ref: '#/components/responses/NotFound' };
    expect(notFoundOf('get', '/v15/campaigns/{id}/{representation_type}')).toEqual(empty);
    expect(notFoundOf('put', '/v15/user_addresses/{id}')).toEqual(empty);
    expect(notFoundOf('get', '/v15/orders/{uuid}')).toEqual(empty);
    expect(notFoundOf('post', '/v14/orders/{uuid}/refund')).toEqual(empty);
    expect(notFoundOf('post', '/v15/orders/{uuid}/refund')).toEqual(empty);
    expect(document.components.responses.NotFound).toEqual({ description: expect.any(String) });
  });

  it('keep the error array on the routes whose 404 names what was not found', () => {
    const withErrors = { $ref: '#/components/responses/NotFoundWithErrors' };
    expect(notFoundOf('delete', '/v14/credit_cards/{id}')).toEqual(withErrors);
    expect(notFoundOf('post', '/v15/codes/{cohort_code}/claims')).toEqual(withErrors);
    expect(notFoundOf('post', '/v15/loyalties/legacy/{campaign_id}/claims')).toEqual(withErrors);
    expect(document.components.responses.NotFoundWithErrors.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Errors' });
  });
});

describe('GET /openapi.json', () => {
  it('serves the document with this deployment as its server', async () => {
    const response = await api.call('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ ...JSON.parse(serializeDocument(document)), servers: [{ url: api.baseUrl }] });
  });
});

describe('GET /docs', () => {
  it('serves an HTML page that loads the renderer from this API, not a CDN', async () => {
    const response = await api.call('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const sources = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.sort()).toEqual(['docs/assets/swagger-ui-bundle.js', 'docs/assets/swagger-ui.css']);
  });

  it.each([
    ['swagger-ui-bundle.js', /^text\/javascript/],
    ['swagger-ui.css', /^text\/css/],
  ])('serves %s from node_modules', async (file, contentType) => {
    const response = await api.call('GET', `/docs/assets/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(contentType);
    expect(response.text).toBe(readFileSync(new URL(`../../node_modules/swagger-ui-dist/${file}`, import.meta.url), 'utf8'));
  });

  it.each(['index.html', '..%2Fpackage.json', 'swagger-ui-bundle.js.map'])('does not serve %s', async (file) => {
    const response = await api.call('GET', `/docs/assets/${file}`);
    expect(response.status).toBe(404);
    expect(response.text).toBe('');
  });
});

describe('the response check every test call runs', () => {
  const json = new Headers({ 'Content-Type': 'application/json; charset=utf-8' });
  const address = {
    id: 1,
    address_type: 'home',
    extended_address: '',
    latitude: null,
    longitude: null,
    locality: 'Boston',
    nickname: '',
    postal_code: '02110',
    region: 'MA',
    street_address: '1 Main St',
  };
  const url = (path: string) => `${api.baseUrl}${path}`;

  it('accepts a documented status with a matching body', async () => {
    await validateResponse('GET', url('/v15/user_addresses'), { status: 200, headers: json, text: JSON.stringify([{ user_address: address }]) });
  });

  it('rejects a status the operation does not document', async () => {
    await expect(validateResponse('GET', url('/v15/user_addresses'), { status: 201, headers: json, text: '[]' })).rejects.toThrow(
      /status 201 is not documented/,
    );
  });

  it('rejects a body of the wrong shape, and a field the schema does not have', async () => {
    await expect(
      validateResponse('GET', url('/v15/user_addresses'), { status: 200, headers: json, text: JSON.stringify([{ user_address: { ...address, id: '1' } }]) }),
    ).rejects.toThrow(/does not match.*\n.*\/0\/user_address\/id must be integer/);
    await expect(
      validateResponse('GET', url('/v15/user_addresses'), { status: 200, headers: json, text: JSON.stringify([{ user_address: { ...address, secret: 1 } }]) }),
    ).rejects.toThrow(/must NOT have additional properties/);
  });

  it('rejects an error that is not the error array, and an empty body where one is documented', async () => {
    const challenged = new Headers({ 'Content-Type': 'application/json', 'WWW-Authenticate': 'Token realm="LevelUp"' });
    await expect(validateResponse('GET', url('/v15/user_addresses'), { status: 401, headers: challenged, text: '{"message":"no"}' })).rejects.toThrow(
      /does not match/,
    );
    await expect(
      validateResponse('GET', url('/v15/user_addresses'), { status: 401, headers: new Headers({ 'WWW-Authenticate': 'Token realm="LevelUp"' }), text: '' }),
    ).rejects.toThrow(/body is empty/);
  });

  it('requires the headers the document says are always there, and a Link only where one is declared', async () => {
    const busy = JSON.stringify([
      { error: { object: 'request', property: 'base', message: 'A request with this Idempotency-Key is still in progress; retry later.', code: 'in_flight' } },
    ]);
    await validateResponse('POST', url('/v15/completed_orders'), {
      status: 409,
      headers: new Headers({ 'Content-Type': 'application/json', 'Retry-After': '1' }),
      text: busy,
    });
    await expect(validateResponse('POST', url('/v15/completed_orders'), { status: 409, headers: json, text: busy })).rejects.toThrow(
      /always carries Retry-After, but it is missing/,
    );
    const unauthorized = JSON.stringify([
      { error: { object: 'access_token', property: 'base', message: 'An access token is required.', code: 'not_authorized' } },
    ]);
    await expect(validateResponse('GET', url('/v15/user_addresses'), { status: 401, headers: json, text: unauthorized })).rejects.toThrow(
      /always carries WWW-Authenticate/,
    );
    const linked = new Headers({ 'Content-Type': 'application/json', Link: `<${url('/v15/user_addresses?page=2')}>; rel="next"` });
    await expect(
      validateResponse('GET', url('/v15/user_addresses'), { status: 200, headers: linked, text: JSON.stringify([{ user_address: address }]) }),
    ).rejects.toThrow(/Link header the document does not declare/);
  });

  it("holds a 404's body to the route's documented shape: empty, or the error array", async () => {
    const cardNotFound = JSON.stringify([{ error: { object: 'credit_card', property: 'id', message: 'Credit card not found.', code: 'not_found' } }]);
    await validateResponse('PUT', url('/v15/user_addresses/1'), { status: 404, headers: new Headers(), text: '' });
    await validateResponse('DELETE', url('/v14/credit_cards/1'), { status: 404, headers: json, text: cardNotFound });
    await expect(validateResponse('GET', url('/v15/orders/abc'), { status: 404, headers: json, text: cardNotFound })).rejects.toThrow(
      /has no body, but the body is not empty/,
    );
    await expect(validateResponse('DELETE', url('/v14/credit_cards/1'), { status: 404, headers: new Headers(), text: '' })).rejects.toThrow(
      /body is empty but a body is documented/,
    );
  });

  it('checks requests no route serves against the fallback', async () => {
    const notFound = JSON.stringify([{ error: { object: 'request', property: 'path', message: 'No route matches GET /nope.', code: 'not_found' } }]);
    await validateResponse('GET', url('/nope'), { status: 404, headers: json, text: notFound });
    await expect(validateResponse('GET', url('/nope'), { status: 200, headers: json, text: '{}' })).rejects.toThrow(/no route serves/);
  });
});

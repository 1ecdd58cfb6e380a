/**
 * The examples the docs page shows (shared/openapi/examples.ts): one on every JSON request body and every
 * JSON success response, each one the API accepts or could answer, real client bodies where the fixtures
 * have them, and no renderer placeholder numbers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, loadApiSpec, type OpenApiDocument } from '#shared/openapi/document.ts';
import { samplePattern } from '#shared/openapi/examples.ts';
import { routes } from '#shared/routes.ts';
import { clientPayload } from '../support/client-payloads.ts';
import { compileDocumentSchema, documentAjv } from './response-validator.ts';

type JsonObject = Record<string, any>;
type Media = { schema: object; examples?: Record<string, { summary: string; value: unknown }> };

let document: OpenApiDocument;

beforeAll(async () => {
  document = await buildDocument();
});

function operations(): { name: string; method: string; path: string; operation: JsonObject }[] {
  return routes.map((route) => ({
    name: `${route.method} ${route.path}`,
    method: route.method,
    path: route.path,
    operation: document.paths[route.path]![route.method.toLowerCase()]!,
  }));
}

/** Every number in a value, however deep. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

describe('request body examples', () => {
  it('are on every JSON request body, and the handler accepts each one', async () => {
    const ajv = documentAjv(document);
    let checked = 0;
    for (const { name, operation } of operations()) {
      const media = operation.requestBody?.content?.['application/json'] as Media | undefined;
      if (!media) continue;
      const examples = Object.values(media.examples ?? {});
      expect(examples.length, name).toBe(1);
      const spec = await loadApiSpec(routes.find((route) => `${route.method} ${route.path}` === name)!);
      for (const { value } of examples) {
        expect(spec.body!.safeParse(value).success, `${name}: ${JSON.stringify(value)}`).toBe(true);
        expect(compileDocumentSchema(ajv, media.schema)(value), name).toBe(true);
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("show the C# SDK's own body on POST /v15/completed_orders", () => {
    const media = document.paths['/v15/completed_orders']!.post!.requestBody.content['application/json'] as Media;
    const payload = clientPayload('csharp_v15_completed_orders__create.json') as { request_body: unknown; response_body: unknown };
    expect(media.examples!.client!.value).toEqual(payload.request_body);
    expect(document.paths['/v15/completed_orders']!.post!.responses['200'].content['application/json'].examples.client.value).toEqual(payload.response_body);
  });
});

describe('success response examples', () => {
  it('are on every JSON success response, and each matches its schema', () => {
    const ajv = documentAjv(document);
    let checked = 0;
    for (const { name, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonObject>)) {
        const media = /^2\d\d$/.test(status) ? (response.content?.['application/json'] as Media | undefined) : undefined;
        if (!media) continue;
        const examples = Object.values(media.examples ?? {});
        expect(examples.length, `${name} ${status}`).toBe(1);
        const validate = compileDocumentSchema(ajv, media.schema);
        for (const { value } of examples) expect(validate(value), `${name} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('every example', () => {
  it('holds realistic numbers: no renderer bounds (±9007199254740991) and no amount of a million dollars', () => {
    const examples = JSON.stringify(document.paths).match(/"examples":\{.*?\}\}\}/g) ?? [];
    expect(examples.length).toBeGreaterThan(150);
    for (const { name, operation } of operations()) {
      const medias = [
        operation.requestBody?.content?.['application/json'],
        ...Object.values(operation.responses as Record<string, JsonObject>).map((response) => response.content?.['application/json']),
      ].filter(Boolean) as Media[];
      for (const media of medias) {
        for (const { value } of Object.values(media.examples ?? {})) {
          for (const number of numbersIn(value)) expect(Math.abs(number), `${name}: ${number}`).toBeLessThan(100_000_000);
        }
      }
    }
  });
});

describe('a string for a pattern', () => {
  it.each([['^evt_[0-9a-z]{9}[0-9a-f]{16}$'], ['^\\d{4}-\\d{2}-\\d{2}T12:00:00\\+00:00$'], ['^[A-Z]{2,3}$'], ['^LU[0-9A-Z]+LU$']])('matches %s', (pattern) => {
    expect(samplePattern(pattern)).toMatch(new RegExp(pattern, 'u'));
  });
});

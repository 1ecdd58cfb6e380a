/**
 * Checks a response against the OpenAPI document: the status must be documented for the operation the
 * route table matches (or, when none matches, be the fallback's 404/405), and the body must match that
 * status's schema. test/support/api.ts runs it on every response of the test suite.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildDocument, type OpenApiDocument } from '#shared/openapi/document.ts';
import { findMatchingRoute } from '../../scripts/local/gateway.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** Where the document's components live for ajv: `#/components/...` refs are rewritten against it. */
const DOCUMENT_URI = 'https://openapi.invalid/openapi.json';

type JsonObject = Record<string, any>;

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
}

interface Checker {
  document: OpenApiDocument;
  ajv: Ajv2020;
  compiled: Map<object, ValidateFunction>;
}

let checker: Promise<Checker> | undefined;

function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `${DOCUMENT_URI}${inner}` : absoluteRefs(inner);
    }
    return out;
  }
  return value;
}

/** ajv (JSON Schema 2020-12, with formats such as date-time) holding the document's components. */
export function documentAjv(document: OpenApiDocument): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_URI, components: absoluteRefs(document.components) });
  return ajv;
}

/** Compiles one schema of the document (its `#/components/...` references resolve). */
export function compileDocumentSchema(ajv: Ajv2020, schema: object): ValidateFunction {
  return ajv.compile(absoluteRefs(schema) as JsonObject);
}

async function load(): Promise<Checker> {
  const document = await buildDocument();
  return { document, ajv: documentAjv(document), compiled: new Map() };
}

function resolveResponse(document: OpenApiDocument, response: JsonObject | undefined): JsonObject | undefined {
  const ref = response?.$ref as string | undefined;
  if (!ref) return response;
  const name = ref.replace('#/components/responses/', '');
  return document.components.responses[name] as JsonObject | undefined;
}

function mediaTypeOf(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function fail(where: string, problem: string, response: CheckedResponse): never {
  const body = response.text.length > 600 ? `${response.text.slice(0, 600)}…` : response.text;
  throw new Error(`OpenAPI: ${where} answered ${response.status}: ${problem}\n  body: ${body}`);
}

/**
 * The headers the document promises: each one it marks `required` (Retry-After on 409, 429 and 503,
 * WWW-Authenticate on 401) must be there, and a Link only where it is declared (a paged list's 200).
 */
function checkHeaders(where: string, documented: JsonObject, response: CheckedResponse): void {
  const declared = (documented.headers ?? {}) as Record<string, { required?: boolean }>;
  for (const [name, header] of Object.entries(declared)) {
    if (header.required && !response.headers.has(name)) fail(where, `the document says it always carries ${name}, but it is missing`, response);
  }
  if (response.headers.has('link') && !declared.Link)
    fail(where, 'it carries a Link header the document does not declare (a paged list sets `paged: true` in its spec)', response);
}

/** Throws a descriptive error when the response is not what the document says the operation answers. */
export async function validateResponse(method: string, url: string, response: CheckedResponse): Promise<void> {
  checker ??= load();
  const { document, ajv, compiled } = await checker;
  const upperMethod = method.toUpperCase();
  const pathname = new URL(url).pathname;
  const { route } = findMatchingRoute(upperMethod, pathname);
  const where = route ? `${upperMethod} ${route.path} (${route.handler})` : `${upperMethod} ${pathname} (no route)`;

  let documented: JsonObject | undefined;
  if (route) {
    const operation = document.paths[route.path]?.[upperMethod.toLowerCase()];
    if (!operation) fail(where, 'the operation is not in the document', response);
    documented = resolveResponse(document, operation.responses[String(response.status)]);
    if (!documented) fail(where, `status ${response.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`, response);
    // `default` is for readers: every status the suite sees must be documented by itself.
    checkHeaders(where, documented, response);
  } else {
    if (response.status !== 404 && response.status !== 405 && response.status !== 413 && response.status !== 429) {
      fail(where, 'a request no route serves must get 404 or 405', response);
    }
    documented = resolveResponse(document, document['x-fallback-response'] as JsonObject);
  }

  // The body's shape, empty or not, must be the one documented for this operation and status.
  const content = documented!.content as Record<string, { schema: JsonObject }> | undefined;
  if (!content) {
    if (response.text !== '') fail(where, 'the document says this status has no body, but the body is not empty', response);
    return;
  }
  if (response.text === '') fail(where, 'the body is empty but a body is documented', response);
  const mediaType = mediaTypeOf(response.headers);
  const entry = content[mediaType];
  if (!entry) fail(where, `Content-Type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`, response);
  if (mediaType !== 'application/json') return;

  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    fail(where, 'the body is not JSON', response);
  }
  let validate = compiled.get(entry.schema);
  if (!validate) {
    validate = compileDocumentSchema(ajv, entry.schema);
    compiled.set(entry.schema, validate);
  }
  if (!validate(body)) {
    const problems = (validate.errors ?? [])
      .slice(0, 8)
      .map((error) => `${error.instancePath || '(root)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
    fail(where, `the body does not match the documented schema:\n    ${problems.join('\n    ')}`, response);
  }
}

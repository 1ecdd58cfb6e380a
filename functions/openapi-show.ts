import { apiHandler } from '#shared/http/handler.ts';
import { findRoute } from '#shared/routes.ts';
import { readBundledFile } from '#shared/http/bundled-files.ts';

// Generated at build time by scripts/openapi.ts (a test fails when it is stale) and shipped beside the
// bundle as the route's bundled file, not inside it: the bundle stays small, and no other handler (which
// the generator imports) reaches this function (docs/openapi.md).
const [DOCUMENT_FILE] = findRoute('openapi-show').bundledFiles!;

/** How many base URLs' answers are kept serialized (a deployment has one or two: its CloudFront and custom domains). */
const CACHED_BASE_URLS = 8;
const answers = new Map<string, string>();

/** The document with `servers` set to this base URL, parsed and serialized once per base URL and process. */
function documentFor(baseUrl: string): string {
  let answer = answers.get(baseUrl);
  if (answer === undefined) {
    const document = JSON.parse(readBundledFile(DOCUMENT_FILE!)) as Record<string, unknown>;
    answer = JSON.stringify({ ...document, servers: [{ url: baseUrl }] });
    if (answers.size >= CACHED_BASE_URLS) answers.delete(answers.keys().next().value!);
    answers.set(baseUrl, answer);
  }
  return answer;
}

/** GET /openapi.json: the OpenAPI 3.1 document of this API, with this deployment's base URL as its server. */
export const handler = apiHandler('openapi-show', { summary: 'The OpenAPI 3.1 document of this API' }, async (request) => ({
  status: 200,
  rawBody: documentFor(request.baseUrl),
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
}));

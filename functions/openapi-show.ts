import * as z from 'zod';
import { apiHandler, ok } from '#shared/http/handler.ts';
// Generated at build time by scripts/openapi.ts (a test fails when it is stale): bundling the JSON keeps
// every other handler, which the generator imports, out of this function (docs/openapi.md).
import document from '../docs/openapi.json' with { type: 'json' };

const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  paths: z.record(z.string(), z.unknown()),
});

/** GET /openapi.json: the OpenAPI 3.1 document of this API, with this deployment's base URL as its server. */
export const handler = apiHandler(
  'openapi-show',
  { responses: { 200: openApiDocument }, summary: 'The OpenAPI 3.1 document of this API' },
  async (request) => ok({ ...document, servers: [{ url: request.baseUrl }] }, { 'Cache-Control': 'public, max-age=300' }),
);

/**
 * Writes docs/openapi.json, the OpenAPI document served at GET /openapi.json, from the route table and
 * the handlers' schemas (shared/openapi/document.ts). Run after changing a route or a schema:
 * `npm run openapi`; test/openapi/document.test.ts fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocument, serializeDocument } from '#shared/openapi/document.ts';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, serializeDocument(await buildDocument()));
console.log(`wrote ${target}`);

/**
 * Writes docs/openapi.json, the OpenAPI document served at GET /openapi.json, from the route table and
 * the handlers' schemas (shared/openapi/document.ts), and the typed client's types generated from it
 * (clients/typescript/schema.d.ts). Run after changing a route or a schema: `npm run openapi`;
 * test/openapi/document.test.ts and test/clients/typescript-types.unit.test.ts fail while either file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocument, serializeDocument } from '#shared/openapi/document.ts';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.ts';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const document = serializeDocument(await buildDocument());
writeFileSync(target, document);
console.log(`wrote ${target}`);
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
console.log(`wrote ${CLIENT_TYPES_FILE}`);

/**
 * Writes docs/openapi.json, the OpenAPI document served at GET /openapi.json, from the route table and
 * the handlers' schemas (shared/openapi/document.ts); the typed client's types generated from it
 * (clients/typescript/schema.d.ts); and docs/errors.md, the error-code catalogue (shared/http/error-codes.ts).
 * Run after changing a route, a schema or the catalogue: `npm run openapi`; test/openapi/document.test.ts,
 * test/clients/typescript-types.unit.test.ts and test/openapi/error-codes.unit.test.ts fail while a file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocument, serializeDocument } from '#shared/openapi/document.ts';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.ts';
import { errorCodesPage } from './error-codes-page.ts';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const document = serializeDocument(await buildDocument());
writeFileSync(target, document);
console.log(`wrote ${target}`);
writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
console.log(`wrote ${CLIENT_TYPES_FILE}`);

const errors = fileURLToPath(new URL('../docs/errors.md', import.meta.url));
writeFileSync(errors, await errorCodesPage(errors));
console.log(`wrote ${errors}`);

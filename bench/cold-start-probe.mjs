// A fresh Node process as Lambda starts one: import the bundle, serve one request, report timings.
// Plain JavaScript so nothing but Node itself runs before the bundle. performance.now() counts from
// this process's start, so `totalMs` includes Node's own bootstrap.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'cold-start-probe',
  awsRequestId: event.requestContext.requestId,
  getRemainingTimeInMillis: () => 10_000,
};
const bootMs = performance.now();
const module = await import(pathToFileURL(bundle).href);
const importedAt = performance.now();
const result = await module.handler(event, context);
const servedAt = performance.now();
process.stderr.write(
  `COLD-START-PROBE ${JSON.stringify({ bootMs, importMs: importedAt - bootMs, firstRequestMs: servedAt - importedAt, totalMs: servedAt, status: result?.statusCode ?? null })}\n`,
);
// The SDK keeps its connection open; a Lambda sandbox would freeze here instead.
process.exit(0);

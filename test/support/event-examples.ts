/**
 * Real webhook payloads for the OpenAPI document's `webhooks` section (shared/openapi/webhooks.ts): one event
 * of each type, as the API stored and delivered it.
 *
 * `EVENT_EXAMPLES_RECORD=<records.jsonl> npx vitest run test/events` appends every event that a
 * `GET /v15/events` of the suite lists (the same bytes a delivery POSTs, docs/events.md) as a JSON line
 * (test/support/api.ts); `npx tsx test/support/event-examples.ts <records.jsonl>` keeps the first of each
 * type in test/fixtures/event-examples.json.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EVENT_EXAMPLES_FIXTURE } from '#shared/openapi/webhooks.ts';

/** The local gateway's base URL in a recorded link (`order_url`, ...) becomes `npm start`'s. */
const LOCAL_BASE_URL = /http:\/\/127\.0\.0\.1:\d+/g;
const NPM_START_BASE_URL = 'http://127.0.0.1:3000';

/** Appends each event of a `GET /v15/events` page to the records file (test/support/api.ts calls it on every 200). */
export function recordListedEvents(recordsFile: string, method: string, url: string, text: string): void {
  if (method !== 'GET' || new URL(url).pathname !== '/v15/events') return;
  for (const event of JSON.parse(text) as unknown[]) appendFileSync(recordsFile, `${JSON.stringify(event)}\n`);
}

function build(recordsFile: string): void {
  const byType = new Map<string, unknown>();
  for (const line of readFileSync(recordsFile, 'utf8').split('\n').filter(Boolean)) {
    const record = JSON.parse(line.replace(LOCAL_BASE_URL, NPM_START_BASE_URL)) as { event: { type: string } };
    if (!byType.has(record.event.type)) byType.set(record.event.type, record);
  }
  const examples = Object.fromEntries([...byType].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(EVENT_EXAMPLES_FIXTURE, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${byType.size} event types to ${EVENT_EXAMPLES_FIXTURE}: ${[...byType.keys()].join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) build(process.argv[2] ?? 'event-examples.jsonl');

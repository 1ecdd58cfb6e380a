/**
 * The validation 422s the suite receives, replayed through the request pipeline's own input parsing
 * (`parseRequestInputs`, shared/http/inputs.ts) with no table, token or clock: what keeps error bodies
 * byte-identical across a change of schema library (issue 35).
 *
 * `npx tsx test/support/golden-422.ts <records.jsonl>` turns what `GOLDEN_422_RECORD=<records.jsonl>`
 * recorded (test/support/api.ts) into test/fixtures/golden-422.json: the requests whose 422 the inputs'
 * validation gives by itself (a 422 of the domain, such as an order over a limit, parses fine and is left out).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApiError } from '#shared/errors.ts';
import type { ApiSpec } from '#shared/http/handler.ts';
import { parseRequestInputs } from '#shared/http/inputs.ts';
import { findMatchingRoute } from '../../scripts/local/gateway.ts';

export interface Golden422 {
  method: string;
  path: string;
  search: string;
  /** The request body as sent (JSON text), absent for none. */
  body?: string;
  /** The 422's body, byte for byte. */
  answer: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const GOLDEN_422_FIXTURE = join(ROOT, 'test/fixtures/golden-422.json');

/** What the pipeline's input validation answers to the request: the 422 body's text, or undefined when it passes or answers another status. */
export async function validationAnswer(request: Omit<Golden422, 'answer'>): Promise<string | undefined> {
  const { route, params } = findMatchingRoute(request.method, request.path);
  if (!route) return undefined;
  const module = (await import(pathToFileURL(join(ROOT, 'functions', `${route.handler}.ts`)).href)) as { handler?: { apiSpec?: ApiSpec } };
  const spec = module.handler?.apiSpec;
  if (!spec) return undefined;
  let body: unknown;
  if (request.body !== undefined && request.body.trim() !== '') {
    try {
      body = JSON.parse(request.body);
    } catch {
      return undefined;
    }
  }
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(request.search)) query[name] = name in query ? `${query[name]},${value}` : value;
  try {
    parseRequestInputs(spec, {
      body,
      queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
      pathParameters: Object.keys(params).length > 0 ? params : undefined,
    });
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return JSON.stringify(error.body());
    return undefined;
  }
}

async function build(recordsFile: string): Promise<void> {
  const seen = new Set<string>();
  const kept: Golden422[] = [];
  const lines = readFileSync(recordsFile, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const record = JSON.parse(line) as Golden422;
    const key = JSON.stringify([record.method, record.path, record.search, record.body ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    if ((await validationAnswer(record)) === record.answer) kept.push(record);
  }
  // Per distinct answer, the two smallest requests that give it: every error body the suite saw, without its 64 KiB bodies twice.
  const byAnswer = new Map<string, Golden422[]>();
  for (const record of kept) byAnswer.set(record.answer, [...(byAnswer.get(record.answer) ?? []), record]);
  const size = (record: Golden422) => (record.body ?? '').length + record.search.length;
  const chosen = [...byAnswer.values()].flatMap((records) => records.sort((a, b) => size(a) - size(b)).slice(0, 2));
  chosen.sort((a, b) => `${a.path} ${a.method} ${a.answer}`.localeCompare(`${b.path} ${b.method} ${b.answer}`));
  writeFileSync(GOLDEN_422_FIXTURE, `[\n${chosen.map((record) => JSON.stringify(record)).join(',\n')}\n]\n`);
  console.log(
    `${lines.length} recorded 422s, ${seen.size} distinct, ${kept.length} from input validation, ${byAnswer.size} distinct bodies: wrote ${chosen.length} cases to ${GOLDEN_422_FIXTURE}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await build(process.argv[2] ?? 'golden-422.jsonl');

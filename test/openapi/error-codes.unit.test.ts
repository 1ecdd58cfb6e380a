/**
 * The error-code catalogue (shared/http/error-codes.ts) against the source and the suite's recorded answers: every
 * code the code can answer is catalogued with the status it comes with, nothing catalogued is dead, docs/errors.md
 * and the document say the same. (Every response of the integration suite is also validated against the document,
 * whose `ErrorDetail.code` is the catalogue's enum: an answered code the catalogue lacks fails that test.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_NAMES, ERROR_CODES, type ErrorCodeEntry } from '#shared/http/error-codes.ts';
import { buildDocument, type OpenApiDocument } from '#shared/openapi/document.ts';
import { errorCodesPage } from '../../scripts/error-codes-page.ts';
import { scanErrorCodes, type Scan } from '../support/error-code-scan.ts';
import { GOLDEN_422_FIXTURE, type Golden422 } from '../support/golden-422.ts';

type JsonObject = Record<string, any>;

/**
 * Code expressions the scan cannot read, with the codes they stand for (read by hand from their types). A new
 * one fails the test until it is resolved here.
 */
const RESOLVED_BY_HAND: Record<string, string[]> = {
  // ChargeResult's refusal reasons (shared/payments/gateway.ts): `'declined' | 'insufficient_funds'`.
  'shared/domain/money/gift-card-orders.ts: charge.reason': ['declined', 'insufficient_funds'],
  // CampaignIssue's codes (shared/domain/loyalty/campaigns.ts): `'invalid' | 'taken' | 'too_many'`.
  'shared/domain/campaigns/management.ts: issue.code': ['invalid', 'taken', 'too_many'],
};

const ERRORS_PAGE = fileURLToPath(new URL('../../docs/errors.md', import.meta.url));

let scan: Scan;
let document: OpenApiDocument;

beforeAll(async () => {
  scan = scanErrorCodes();
  document = await buildDocument();
});

const catalogued = (code: string): ErrorCodeEntry | undefined => (ERROR_CODES as Record<string, ErrorCodeEntry>)[code];

describe('the error-code catalogue', () => {
  it('has every code the source can answer', () => {
    const missing = scan.codes.filter(({ code }) => !catalogued(code)).map(({ code, where }) => `${code} (${where})`);
    expect(missing).toEqual([]);
  });

  it('lists the status each code is answered with where the source says it', () => {
    const wrong = scan.codes
      .filter(({ code, status }) => status !== undefined && catalogued(code) && !catalogued(code)!.statuses.includes(status))
      .map(({ code, status, where }) => `${code} ${status} (${where})`);
    expect(wrong).toEqual([]);
  });

  it('reads every code expression of the source, or knows by hand what it stands for', () => {
    const unknown = scan.unresolved.filter((entry) => !(entry.replace(/:\d+:/, ':') in RESOLVED_BY_HAND));
    expect(unknown).toEqual([]);
    for (const codes of Object.values(RESOLVED_BY_HAND)) for (const code of codes) expect(catalogued(code), code).toBeDefined();
  });

  it('lists no code the source cannot answer', () => {
    const answerable = new Set([...scan.codes.map(({ code }) => code), ...Object.values(RESOLVED_BY_HAND).flat()]);
    expect(ERROR_CODE_NAMES.filter((code) => !answerable.has(code))).toEqual([]);
  });

  it("has every code of the suite's recorded 422 answers (test/fixtures/golden-422.json)", () => {
    const recorded = JSON.parse(readFileSync(GOLDEN_422_FIXTURE, 'utf8')) as Golden422[];
    const codes = new Set(recorded.flatMap((record) => (JSON.parse(record.answer) as { error: { code?: string } }[]).map(({ error }) => error.code)));
    expect([...codes].filter((code) => code !== undefined && !catalogued(code))).toEqual([]);
    for (const code of codes) if (code !== undefined) expect(catalogued(code)!.statuses, code).toContain(422);
  });

  it('says when and what to do for each code, with real statuses', () => {
    for (const code of ERROR_CODE_NAMES) {
      const entry: ErrorCodeEntry = ERROR_CODES[code];
      expect(entry.when.length, code).toBeGreaterThan(10);
      expect(entry.action.length, code).toBeGreaterThan(5);
      expect(entry.statuses.length, code).toBeGreaterThan(0);
      for (const status of entry.statuses) expect(status >= 400 && status < 600, `${code} ${status}`).toBe(true);
    }
  });
});

describe('where the catalogue is published', () => {
  it('makes the document’s ErrorDetail.code the enum of the codes, and x-error-codes the catalogue', () => {
    const code = (document.components.schemas.ErrorDetail as JsonObject).properties.code as JsonObject;
    expect(code.enum).toEqual(ERROR_CODE_NAMES);
    expect(document['x-error-codes']).toEqual(ERROR_CODES);
  });

  it('keeps docs/errors.md as npm run openapi writes it, with a row per code', async () => {
    const page = readFileSync(ERRORS_PAGE, 'utf8');
    expect(page).toBe(await errorCodesPage(ERRORS_PAGE));
    for (const code of ERROR_CODE_NAMES) expect(page).toContain(`| \`${code}\``);
  });
});

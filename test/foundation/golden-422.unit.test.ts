/**
 * Every validation 422 the suite received on the classic zod schemas, byte for byte (issue 35: a change of
 * schema library must leave each error body identical). The fixture is the suite's own requests, recorded and
 * kept where input validation alone answers them (test/support/golden-422.ts says how to record it again).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GOLDEN_422_FIXTURE, validationAnswer, type Golden422 } from '../support/golden-422.ts';

const cases = JSON.parse(readFileSync(GOLDEN_422_FIXTURE, 'utf8')) as Golden422[];

describe('validation 422 bodies', () => {
  it('covers the routes that validate a body, a query or a path', () => {
    expect(cases.length).toBeGreaterThan(100);
    expect(new Set(cases.map((item) => item.path.split('/').slice(0, 3).join('/'))).size).toBeGreaterThan(10);
  });

  it('answers each recorded request with the recorded body', async () => {
    const differing: { request: string; expected: string; actual: string | undefined }[] = [];
    for (const item of cases) {
      const actual = await validationAnswer(item);
      if (actual !== item.answer)
        differing.push({ request: `${item.method} ${item.path}${item.search} ${item.body ?? ''}`.slice(0, 300), expected: item.answer, actual });
    }
    expect(differing).toEqual([]);
  }, 120_000);
});

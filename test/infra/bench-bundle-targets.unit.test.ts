/**
 * The bench's cold-start targets (issue 35, "Targets"; docs/benchmarks.md "Cold start"): each function is judged
 * against its own cold twin (<= 1.15x), its import against the baseline's (<= +5 ms) and its bundle against
 * 120 KiB, not counting the AWS SDK if it is bundled; no verdict reads the ratio to the one-GetItem baseline.
 */
import { describe, expect, it } from 'vitest';
import type { ColdStartRow } from '../../bench/cold-start/cold-start.ts';
import { coldStartVerdicts, TARGETS } from '../../bench/report/report.ts';

const KIB = 1024;
const row = (figures: Partial<ColdStartRow>): ColdStartRow => ({ handler: 'users-show', route: 'GET /v15/users', available: true, ...figures });

describe('bench cold-start verdicts', () => {
  it('states the three targets of issue 35', () => {
    expect([TARGETS.coldStartTwinRatio, TARGETS.importMsOverBaseline, TARGETS.bundleKiB]).toEqual([1.15, 5, 120]);
  });

  it("judges the cold start by the function's own twin, whatever its start against the baseline", () => {
    expect(coldStartVerdicts(row({ twinRatio: 1.15, totalMs: 900 }), 100).twin).toBe(true);
    expect(coldStartVerdicts(row({ twinRatio: 1.16, totalMs: 300 }), 100).twin).toBe(false);
    expect(coldStartVerdicts(row({}), 100).twin).toBeNull();
  });

  it("bounds the import at the baseline's plus 5 ms", () => {
    expect(coldStartVerdicts(row({ importMs: 105 }), 100)).toMatchObject({ import: true, importOverMs: 5 });
    expect(coldStartVerdicts(row({ importMs: 105.2 }), 100)).toMatchObject({ import: false, importOverMs: 5.2 });
    expect(coldStartVerdicts(row({ importMs: 105 }), undefined).import).toBeNull();
  });

  it('bounds the bundle at 120 KiB without the bundled AWS SDK', () => {
    expect(coldStartVerdicts(row({ bundleBytes: 120 * KIB }), 100).bundle).toBe(true);
    expect(coldStartVerdicts(row({ bundleBytes: 120 * KIB + 1 }), 100).bundle).toBe(false);
    expect(coldStartVerdicts(row({ bundleBytes: 450 * KIB, sdkBytes: 330 * KIB }), 100).bundle).toBe(true);
    expect(coldStartVerdicts(row({ bundleBytes: 451 * KIB, sdkBytes: 330 * KIB }), 100).bundle).toBe(false);
  });
});

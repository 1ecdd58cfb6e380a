/**
 * The ecosystem's own check of the document: Redocly CLI's `recommended` ruleset (test/openapi/redocly.yaml
 * says which warnings are acknowledged, and why), run offline on a fresh build. Zero errors, zero warnings.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDocument, serializeDocument } from '#shared/openapi/document.ts';

const CONFIG = fileURLToPath(new URL('./redocly.yaml', import.meta.url));
const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const directory = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('Redocly CLI lint (recommended)', () => {
  it('finds no error and no unacknowledged warning in the document', { timeout: 120_000 }, async () => {
    const file = join(directory, 'openapi.json');
    writeFileSync(file, serializeDocument(await buildDocument()));
    // Exits 1 when it finds an error: the report on stdout says which, so the exit status is not what is asserted.
    const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--config', CONFIG, '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((failure: { stdout?: string; stderr?: string }) => ({ stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
    const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestApi } from './api.ts';
import { finished, type ProcessResult } from './child-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type CliResult = ProcessResult;

/**
 * Runs `npx tsx scripts/admin.ts <args>` as an operator would: against the test's table, or with only
 * the environment `env` gives (the runner's own DYNAMODB_ENDPOINT and TABLE_NAME are never inherited).
 */
export function runAdmin(args: string[], target: TestApi | Record<string, string | undefined>): Promise<CliResult> {
  const env = 'tableName' in target ? { DYNAMODB_ENDPOINT: target.endpoint as string, TABLE_NAME: target.tableName as string } : target;
  const { DYNAMODB_ENDPOINT: _endpoint, TABLE_NAME: _table, ...inherited } = process.env;
  return finished(spawn('npx', ['tsx', 'scripts/admin.ts', ...args], { cwd: root, env: { ...inherited, AWS_REGION: 'local', LOG_LEVEL: 'silent', ...env } }));
}

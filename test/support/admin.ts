import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestApi } from './api.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npx tsx scripts/admin.ts <args>` as an operator would: against the test's table, or with only
 * the environment `env` gives (the runner's own DYNAMODB_ENDPOINT and TABLE_NAME are never inherited).
 */
export function runAdmin(args: string[], target: TestApi | Record<string, string | undefined>): Promise<CliResult> {
  const env = 'tableName' in target ? { DYNAMODB_ENDPOINT: target.endpoint as string, TABLE_NAME: target.tableName as string } : target;
  return new Promise((resolve, reject) => {
    const { DYNAMODB_ENDPOINT: _endpoint, TABLE_NAME: _table, ...inherited } = process.env;
    const child = spawn('npx', ['tsx', 'scripts/admin.ts', ...args], { cwd: root, env: { ...inherited, AWS_REGION: 'local', LOG_LEVEL: 'silent', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

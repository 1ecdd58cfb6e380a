/**
 * The benchmark's own local stack: in-memory DynamoDB Local, a fresh table from the deployed
 * definition, and the gateway (throttling off) in a child process with DYNAMODB_STATS=1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { localClient, startDynamoDbLocal, type DynamoDbLocal } from '../../scripts/local/dynamodb-local.ts';
import { ensureTable } from '../../scripts/local/table.ts';

export const BENCH_DIRECTORY = fileURLToPath(new URL('../', import.meta.url));
/** Scratch space (git-ignored): server log, bundles for the cold-start measurement. */
export const SCRATCH_DIRECTORY = join(BENCH_DIRECTORY, 'tmp');

export interface BenchStack {
  dynamo: DynamoDbLocal;
  tableName: string;
  baseUrl: string;
  serverLog: string;
  /** The local workflow service's endpoint (the gateway process's STEPFUNCTIONS_ENDPOINT). */
  workflowsEndpoint: string | undefined;
  /** Environment of a process that talks to this stack's table (cold-start probes). */
  tableEnvironment: Record<string, string>;
  /**
   * The gateway's local workflow service queues the executions started from now on (StartExecution still
   * answers as always): for measuring a route whose executions, on AWS, never share its CPU.
   */
  holdWorkflows(): Promise<void>;
  /** Runs the held executions; resolves with how many there were once no execution runs any more. */
  releaseWorkflows(): Promise<number>;
  stop(): Promise<void>;
}

function waitForPort(child: ChildProcess, serverLog: string): Promise<{ port: number; workflowsEndpoint?: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bench gateway did not start within 60 s; see ${serverLog}`)), 60_000);
    child.once('message', (message: { port?: number; workflowsEndpoint?: string }) => {
      clearTimeout(timer);
      if (typeof message.port === 'number')
        resolve({ port: message.port, ...(message.workflowsEndpoint ? { workflowsEndpoint: message.workflowsEndpoint } : {}) });
      else reject(new Error(`unexpected message from the bench gateway: ${JSON.stringify(message)}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench gateway exited with code ${code}; see ${serverLog}`));
    });
  });
}

export async function startBenchStack(): Promise<BenchStack> {
  mkdirSync(SCRATCH_DIRECTORY, { recursive: true });
  const dynamo = await startDynamoDbLocal();
  const tableName = `bench-${randomUUID().slice(0, 8)}`;
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, tableName);
  client.destroy();

  const tableEnvironment = { DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: tableName, AWS_REGION: 'local' };
  // This process seeds through the domain library and measures the floor with the same client settings.
  Object.assign(process.env, tableEnvironment, { DYNAMODB_STATS: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });

  const serverLog = join(SCRATCH_DIRECTORY, 'server.log');
  const logFd = openSync(serverLog, 'w');
  const child = fork(join(BENCH_DIRECTORY, 'harness', 'server.ts'), [], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROFILE_DIRECTORY ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIRECTORY}`] : []),
    ],
    // Request logs stay on at `info`, as deployed: writing them is part of a request's cost.
    env: { ...process.env, ...tableEnvironment, DYNAMODB_STATS: '1', LOG_LEVEL: 'info' },
    stdio: ['ignore', logFd, logFd, 'ipc'],
  });
  closeSync(logFd);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let port: number;
  let workflowsEndpoint: string | undefined;
  try {
    ({ port, workflowsEndpoint } = await waitForPort(child, serverLog));
  } catch (error) {
    child.kill('SIGKILL');
    await dynamo.stop();
    throw error;
  }

  /** One IPC request to the gateway process, answered by the next `workflows` message. */
  const workflowsRequest = (action: 'hold' | 'release') =>
    new Promise<{ workflows: string; executions?: number; error?: string }>((resolve, reject) => {
      const onMessage = (message: { workflows?: string; executions?: number; error?: string }) => {
        if (message.workflows === undefined) return;
        child.off('message', onMessage);
        if (message.workflows === 'failed') reject(new Error(`the bench gateway could not ${action} the workflows: ${message.error}`));
        else resolve(message as { workflows: string; executions?: number });
      };
      child.on('message', onMessage);
      child.send({ workflows: action });
    });

  return {
    dynamo,
    tableName,
    baseUrl: `http://127.0.0.1:${port}`,
    serverLog,
    workflowsEndpoint,
    tableEnvironment,
    async holdWorkflows() {
      await workflowsRequest('hold');
    },
    async releaseWorkflows() {
      return (await workflowsRequest('release')).executions ?? 0;
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        });
      }
      await dynamo.stop();
    },
  };
}

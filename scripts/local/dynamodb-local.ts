import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

const require = createRequire(import.meta.url);

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export const JAVA_MISSING_MESSAGE = [
  'DynamoDB Local needs Java 17 or newer, and `java` was not found on the PATH.',
  'Install it, for example:',
  '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y openjdk-17-jre-headless',
  '  macOS (Homebrew): brew install openjdk@17',
].join('\n');

export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) throw new Error(JAVA_MISSING_MESSAGE);
  const version = /version "(\d+)/.exec(result.stderr ?? '')?.[1];
  if (version && Number(version) < 17) throw new Error(`Java ${version} found; ${JAVA_MISSING_MESSAGE}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function emulatorDirectory(): string {
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms: ${(error as Error).message}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Starts DynamoDB Local (the jar that amplify-dynamodb-simulator ships) on Java.
 * With `dataDirectory` the data survives restarts; without it the database lives in memory.
 */
export async function startDynamoDbLocal(options: { port?: number; dataDirectory?: string } = {}): Promise<DynamoDbLocal> {
  assertJava();
  const port = options.port ?? (await freePort());
  const directory = emulatorDirectory();
  const storage = options.dataDirectory ? ['-dbPath', options.dataDirectory] : ['-inMemory'];
  if (options.dataDirectory) mkdirSync(options.dataDirectory, { recursive: true });
  const child = spawn(
    'java',
    [
      '-Xms64m',
      '-Xmx512m',
      `-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(directory, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      ...storage,
    ],
    { cwd: directory, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // Never leave a Java process behind, whatever way this process ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    // Generous: on a loaded two-core machine the JVM alone can take most of a minute to start.
    await waitUntilServing(endpoint, child, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return {
    endpoint,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

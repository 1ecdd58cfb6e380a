import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * Fault injection for DynamoDB calls, to prove money converges when DynamoDB misbehaves
 * (test/faults/**, docs/reliability.md). Off unless DYNAMODB_FAULTS is set when the client is created:
 *
 *   DYNAMODB_FAULTS="rate=0.1,seed=42,kinds=throttle,500,timeout,after_commit"
 *
 * - `rate`: probability that one call fails (0..1).
 * - `seed`: seeds the generator that picks which calls fail and how (default 1).
 * - `kinds` (default all):
 *     throttle      ProvisionedThroughputExceededException or ThrottlingException; not sent.
 *     500           InternalServerError; not sent.
 *     timeout       TimeoutError after a short wait; not sent (the connection never got through).
 *     after_commit  SENT and applied by DynamoDB, then a TimeoutError anyway: the caller cannot tell
 *                   whether its write happened, the case exactly-once code must survive.
 *
 * - `layer`: where the faults happen relative to the SDK's own retries (default `call`):
 *     call     above the retry middleware: every fault reaches the application, as if the SDK had used
 *              up its attempts. The harshest setting: what application code must survive.
 *     attempt  below it: each HTTP attempt may fail and the SDK's retry strategy (AWS_MAX_ATTEMPTS,
 *              default 3) retries throttles, 500s and timeouts as in production. An `after_commit`
 *              attempt is then re-sent by the SDK after DynamoDB applied it, so a conditional write
 *              can come back as a failed condition caused by its own first attempt.
 */
export type FaultKind = 'throttle' | '500' | 'timeout' | 'after_commit';
export type FaultLayer = 'call' | 'attempt';

export const FAULT_KINDS: readonly FaultKind[] = ['throttle', '500', 'timeout', 'after_commit'];

export interface FaultConfig {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  layer: FaultLayer;
}

export interface FaultCounts {
  calls: number;
  injected: Record<FaultKind, number>;
}

/** Parses DYNAMODB_FAULTS; `kinds` takes every comma-separated word after it that has no `=`. */
export function parseFaultSpec(spec: string): FaultConfig {
  const config: FaultConfig = { rate: 0, seed: 1, kinds: [...FAULT_KINDS], layer: 'call' };
  let listing = false;
  const kinds: FaultKind[] = [];
  for (const part of spec
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean)) {
    const [name, value] = part.includes('=') ? part.split('=', 2).map((word) => word.trim()) : [undefined, part];
    if (name === undefined) {
      if (!listing) throw new Error(`DYNAMODB_FAULTS: "${part}" is not name=value`);
      kinds.push(parseKind(value));
      continue;
    }
    listing = false;
    if (name === 'rate') config.rate = Number(value);
    else if (name === 'seed') config.seed = Number(value);
    else if (name === 'layer') {
      if (value !== 'call' && value !== 'attempt') throw new Error('DYNAMODB_FAULTS: layer must be call or attempt');
      config.layer = value;
    } else if (name === 'kinds') {
      listing = true;
      kinds.push(parseKind(value));
    } else throw new Error(`DYNAMODB_FAULTS: unknown setting "${name}"`);
  }
  if (!(config.rate >= 0 && config.rate <= 1)) throw new Error('DYNAMODB_FAULTS: rate must be between 0 and 1');
  if (!Number.isInteger(config.seed)) throw new Error('DYNAMODB_FAULTS: seed must be an integer');
  if (kinds.length > 0) config.kinds = kinds;
  return config;
}

function parseKind(word: string): FaultKind {
  if ((FAULT_KINDS as readonly string[]).includes(word)) return word as FaultKind;
  throw new Error(`DYNAMODB_FAULTS: unknown kind "${word}" (known: ${FAULT_KINDS.join(', ')})`);
}

/** mulberry32: small, seedable, good enough to pick faults. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let active = true;
let current: FaultConfig | undefined;
let random: () => number = Math.random;
const counts: FaultCounts = { calls: 0, injected: { throttle: 0, '500': 0, timeout: 0, after_commit: 0 } };

/**
 * The switch a test flips to set data up (and audit it) without faults. Process-wide: the handlers
 * the local gateway serves run in the same process and share the one client.
 */
export function setFaultsActive(enabled: boolean): void {
  active = enabled;
}

/** Changes the settings of the installed middleware (rate, kinds, layer); the generator is reseeded. */
export function configureFaults(changes: Partial<FaultConfig>): FaultConfig {
  if (!current) throw new Error('fault injection is not installed: set DYNAMODB_FAULTS before the DynamoDB client is created');
  current = { ...current, ...changes };
  random = seededRandom(current.seed);
  return { ...current };
}

/** Calls seen and faults injected since the client was created (while active). */
export function faultCounts(): FaultCounts {
  return { calls: counts.calls, injected: { ...counts.injected } };
}

/** An error shaped like the SDK's service exceptions, so code that reads `name` or `$fault` sees the real thing. */
function serviceError(name: string, message: string, status: number, fault: 'client' | 'server'): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: fault,
    $metadata: { httpStatusCode: status, attempts: 1, totalRetryDelay: 0 },
    $injected: true,
  });
}

function faultError(kind: FaultKind, operation: string, random: () => number): Error {
  switch (kind) {
    case 'throttle':
      return random() < 0.5
        ? serviceError('ProvisionedThroughputExceededException', `Injected fault: ${operation} exceeded provisioned throughput.`, 400, 'client')
        : serviceError('ThrottlingException', `Injected fault: ${operation} was throttled.`, 400, 'client');
    case '500':
      return serviceError('InternalServerError', `Injected fault: ${operation} failed inside DynamoDB.`, 500, 'server');
    case 'timeout':
      return serviceError('TimeoutError', `Injected fault: ${operation} timed out before it reached DynamoDB.`, 0, 'client');
    case 'after_commit':
      return serviceError('TimeoutError', `Injected fault: ${operation} succeeded in DynamoDB but its answer was lost.`, 0, 'client');
  }
}

/** One shape fits both steps: the handler only passes `args` through or throws. */
type Next = (args: never) => Promise<unknown>;

/** Adds the fault middleware to a client (shared/db/client.ts does, when DYNAMODB_FAULTS is set). */
export function injectFaults(client: DynamoDBClient, config: FaultConfig = parseFaultSpec(process.env.DYNAMODB_FAULTS ?? '')): void {
  current = { ...config };
  random = seededRandom(config.seed);
  const middleware =
    (layer: FaultLayer) =>
    <N extends Next>(next: N, context: { commandName?: string }) =>
    async (args: Parameters<N>[0]): Promise<Awaited<ReturnType<N>>> => {
      const config = current!;
      if (!active || config.layer !== layer || config.rate === 0 || config.kinds.length === 0) return (await next(args)) as Awaited<ReturnType<N>>;
      counts.calls += 1;
      if (random() >= config.rate) return (await next(args)) as Awaited<ReturnType<N>>;
      const kind = config.kinds[Math.floor(random() * config.kinds.length)]!;
      counts.injected[kind] += 1;
      const error = faultError(kind, String(context.commandName ?? 'call').replace(/Command$/, ''), random);
      if (kind === 'after_commit') {
        // Whatever DynamoDB answered (success, or a failed condition) is lost on the way back.
        await next(args).catch(() => undefined);
        throw error;
      }
      if (kind === 'timeout') await sleep(5 + Math.floor(random() * 20));
      throw error;
    };
  client.middlewareStack.add(middleware('call'), { step: 'initialize', name: 'injectDynamoDbFaultsPerCall', priority: 'high' });
  client.middlewareStack.addRelativeTo(middleware('attempt'), { relation: 'after', toMiddleware: 'retryMiddleware', name: 'injectDynamoDbFaultsPerAttempt' });
}

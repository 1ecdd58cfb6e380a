import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { configureFaults, FAULT_KINDS, faultCounts, setFaultsActive, type FaultLayer } from '#shared/db/faults.ts';
import type { ApiCall, ApiResult, TestApi } from '../support/api.ts';

/**
 * What a well-behaved POS does with a money-moving request: send it again, unchanged (same body, same
 * Idempotency-Key / external_identifier), while the answer is "try again" — any 5xx, 409 (in flight) or
 * 429 — up to a bounded number of attempts. The backoff is short and bounded: convergence must not
 * depend on waiting out a 30 s lease.
 */
export const MAX_ATTEMPTS = 40;

export interface RetryLog {
  /** Every attempt's status, per request label. */
  attempts: Map<string, number[]>;
}

export function newRetryLog(): RetryLog {
  return { attempts: new Map() };
}

const retryable = (status: number) => status >= 500 || status === 409 || status === 429;

export async function callWithRetries<T = any>(
  api: TestApi,
  log: RetryLog,
  label: string,
  method: string,
  path: string,
  options: ApiCall,
): Promise<ApiResult<T>> {
  const statuses: number[] = [];
  log.attempts.set(label, statuses);
  for (let attempt = 1; ; attempt++) {
    const result = await api.call<T>(method, path, options);
    statuses.push(result.status);
    if (!retryable(result.status) || attempt >= MAX_ATTEMPTS) return result;
    const retryAfterMs = Number(result.headers.get('retry-after') ?? 0) * 1000;
    await sleep(Math.min(500, Math.max(retryAfterMs > 0 ? 200 : 0, 25 * attempt)) + Math.random() * 25);
  }
}

/** Runs `work` over `inputs` with at most `concurrency` in flight. */
export async function inParallel<I, O>(inputs: readonly I[], concurrency: number, work: (input: I, index: number) => Promise<O>): Promise<O[]> {
  const results: O[] = new Array(inputs.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, inputs.length) }, async () => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await work(inputs[index]!, index);
    }
  });
  await Promise.all(workers);
  return results;
}

/** Status histogram of every attempt in the log ("200": 40, "500": 7, ...), of the labels containing `filter`. */
export function statusCounts(log: RetryLog, filter = ''): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [label, statuses] of log.attempts) {
    if (!label.includes(filter)) continue;
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/**
 * Runs `work` with DynamoDB faults on at `layer` (seed FAULTS_SEED, else `seed`, for layer call; one more
 * for layer attempt), then proves it was a real test: every kind of fault was injected; above the SDK's
 * retries every fault reaches the application, so the clients must have seen 5xx (inside them the SDK may
 * absorb all); and no request of `labels` used up its attempts. Logs the figures docs/reliability.md quotes.
 */
export async function runUnderFaults(layer: FaultLayer, seed: number, log: RetryLog, labels: string, work: () => Promise<unknown>): Promise<void> {
  const before = faultCounts();
  // FAULTS_SEED explores other fault sequences (the defaults are the ones recorded in docs/reliability.md).
  const base = Number(process.env.FAULTS_SEED ?? seed);
  configureFaults({ layer, seed: layer === 'call' ? base : base + 1 });
  setFaultsActive(true);
  try {
    await work();
  } finally {
    setFaultsActive(false);
  }
  const after = faultCounts();
  const injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, after.injected[kind] - before.injected[kind]]));
  const statuses = statusCounts(log, labels);
  const mostAttempts = Math.max(...[...log.attempts].filter(([label]) => label.includes(labels)).map(([, attempts]) => attempts.length));
  console.log(JSON.stringify({ layer, calls: after.calls - before.calls, injected, statuses, mostAttempts }));
  for (const kind of FAULT_KINDS) expect(injected[kind], kind).toBeGreaterThan(0);
  if (layer === 'call') expect(Object.keys(statuses).some((status) => Number(status) >= 500)).toBe(true);
  expect(mostAttempts).toBeLessThan(MAX_ATTEMPTS);
}

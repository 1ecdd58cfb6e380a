import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Errors worth trying again, and the ONE backoff every retry loop of the code base waits with.
 *
 * `retryTransient` covers the writes whose outcome the caller must settle before answering: the writes
 * that take or give back a lease (Idempotency-Key, settlement claim). Left as a plain error, such a write
 * could hold its lease until it expires (30 s), and every retry of the client's request would get 409
 * meanwhile. The SDK already retries these errors; this covers an error that outlived them, or an answer
 * lost after DynamoDB applied the write — so a retried write must recognise its own earlier success
 * (each call site checks the lease token it wrote).
 */

const TRANSIENT_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/** Throttling, a DynamoDB 5xx, a timeout or a dropped connection: trying again may succeed. */
export function isTransientDbError(error: unknown): boolean {
  const candidate = error as { name?: string; code?: string; $fault?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (!candidate) return false;
  return (
    TRANSIENT_NAMES.has(candidate.name ?? '') ||
    TRANSIENT_CODES.has(candidate.code ?? '') ||
    candidate.$fault === 'server' ||
    (candidate.$metadata?.httpStatusCode ?? 0) >= 500
  );
}

/** How patient a retry loop is: the ceiling of attempt n is min(capMs, baseMs * 2^n). */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

/**
 * After a transient error: the eight attempts of `retryTransient` stay near a second in the worst case,
 * well inside a Lambda's timeout.
 */
export const TRANSIENT_BACKOFF: Backoff = { baseMs: 25, capMs: 200 };

/**
 * After losing a race to another writer of the same items (a cancelled transaction, a moved balance):
 * longer waits spread the contenders out, so one of them commits on the next round.
 */
export const CONTENTION_BACKOFF: Backoff = { baseMs: 20, capMs: 640 };

/** Full jitter over an exponential, capped ceiling (attempts count from 1). */
export function backoffMs(attempt: number, policy: Backoff = TRANSIENT_BACKOFF): number {
  return Math.round(Math.random() * Math.min(policy.capMs, policy.baseMs * 2 ** attempt));
}

export function backoff(attempt: number, policy: Backoff = TRANSIENT_BACKOFF): Promise<void> {
  return sleep(backoffMs(attempt, policy));
}

/**
 * Enough that a lease write outlasting them is vanishingly rare (at a 10% fault rate, 1e-8), while the
 * capped backoff keeps the worst case near a second.
 */
export const TRANSIENT_ATTEMPTS = 8;

/** Runs `work` again (after `backoff`) while it fails transiently, up to `attempts` times. */
export async function retryTransient<T>(work: () => Promise<T>, attempts = TRANSIENT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientDbError(error)) throw error;
      await backoff(attempt);
    }
  }
}

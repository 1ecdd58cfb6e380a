import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Retrying DynamoDB errors whose outcome the caller must settle before answering: the writes that take
 * or give back a lease (Idempotency-Key, settlement claim). Left as a plain error, such a write could hold
 * its lease until it expires (30 s), and every retry of the client's request would get 409 meanwhile.
 * The SDK already retries these errors; this covers an error that outlived them, or an answer
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

/**
 * Enough that a lease write outlasting them is vanishingly rare (at a 10% fault rate, 1e-8), while the
 * capped backoff keeps the worst case near a second, well inside a Lambda's timeout.
 */
export const TRANSIENT_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 200;

/** Runs `work` again (short jittered backoff) while it fails transiently, up to `attempts` times. */
export async function retryTransient<T>(work: () => Promise<T>, attempts = TRANSIENT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientDbError(error)) throw error;
      await sleep(Math.round(Math.random() * Math.min(MAX_BACKOFF_MS, 25 * 2 ** attempt)));
    }
  }
}

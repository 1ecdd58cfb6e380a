import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../scripts/local/throttle.ts';

describe('local stage throttling (token bucket)', () => {
  it('admits a burst, then refuses with a Retry-After until tokens refill', () => {
    let now = 0;
    const bucket = new TokenBucket(2, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()].every((result) => result.allowed)).toBe(true);
    expect(bucket.take()).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 500;
    expect(bucket.take().allowed).toBe(true);
    expect(bucket.take().allowed).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ClientLimiter, TokenBucket } from '../../scripts/local/throttle.ts';

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

describe('per-client limits (ClientLimiter)', () => {
  const limits = {
    perCredential: { ratePerSecond: 1, burst: 2 },
    perAddressAnonymous: { ratePerSecond: 1, burst: 2 },
    perAddressCredentialed: { ratePerSecond: 1, burst: 3 },
  };

  it('an exhausted credential or anonymous address leaves other credentials and addresses untouched', () => {
    let now = 0;
    const limiter = new ClientLimiter(limits, () => now);
    const anonymous = { address: '10.0.0.1' };
    expect([limiter.admit(anonymous), limiter.admit(anonymous)].every((result) => result.allowed)).toBe(true);
    expect(limiter.admit(anonymous)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Same address, but with a credential: its own budget.
    expect(limiter.admit({ address: '10.0.0.1', credential: 'token A' }).allowed).toBe(true);
    expect(limiter.admit({ address: '10.0.0.2' }).allowed).toBe(true);
    expect(limiter.admit({ address: '10.0.0.1', credential: 'token A' }).allowed).toBe(true);
    expect(limiter.admit({ address: '10.0.0.1', credential: 'token A' }).allowed).toBe(false);
    expect(limiter.admit({ address: '10.0.0.3', credential: 'token B' }).allowed).toBe(true);
    now += 1000;
    expect(limiter.admit(anonymous).allowed).toBe(true);
  });

  it('made-up tokens from one address share that address budget', () => {
    const limiter = new ClientLimiter(limits, () => 0);
    const results = Array.from({ length: 5 }, (_, index) => limiter.admit({ address: '10.0.0.9', credential: `token forged-${index}` }).allowed);
    expect(results).toEqual([true, true, true, false, false]);
  });
});

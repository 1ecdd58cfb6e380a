/**
 * API Gateway's stage throttling, reproduced locally: a token bucket that refills at `rateLimit`
 * tokens per second up to `burstLimit`. A request that finds the bucket empty gets 429.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly rateLimit: number,
    private readonly burstLimit: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burstLimit;
    this.refilledAt = now();
  }

  /** Takes a token; when none is left, returns the seconds until one will be (for Retry-After). */
  take(): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.rateLimit)) };
  }

  /** A full bucket behaves exactly like a new one. */
  isFull(): boolean {
    this.refill();
    return this.tokens >= this.burstLimit;
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.burstLimit, this.tokens + ((now - this.refilledAt) / 1000) * this.rateLimit);
    this.refilledAt = now;
  }
}

export type Admission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface BucketLimit {
  ratePerSecond: number;
  burst: number;
}

export interface ClientLimitSettings {
  perCredential: BucketLimit;
  perAddressAnonymous: BucketLimit;
  perAddressCredentialed: BucketLimit;
}

/** Buckets kept at most; beyond it, full buckets (no different from new ones) are dropped. */
const MAX_BUCKETS = 10_000;

/**
 * The per-client limits of shared/throttling.ts (CLIENT_LIMITS), as the deployed WAF rules apply them:
 * a request with an Authorization header takes a token from its credential's bucket and from its
 * address's credentialed bucket; one without takes from its address's anonymous bucket. So one caller
 * (a credential, or an address) exhausting its own buckets leaves everyone else's untouched.
 */
export class ClientLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: ClientLimitSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  admit(client: { credential?: string; address: string }): Admission {
    const takes: [string, BucketLimit][] = client.credential
      ? [
          [`credential:${client.credential}`, this.limits.perCredential],
          [`address-credentialed:${client.address}`, this.limits.perAddressCredentialed],
        ]
      : [[`address-anonymous:${client.address}`, this.limits.perAddressAnonymous]];
    let retryAfterSeconds = 0;
    for (const [key, limit] of takes) {
      const result = this.bucket(key, limit).take();
      if (!result.allowed) retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds);
    }
    return retryAfterSeconds > 0 ? { allowed: false, retryAfterSeconds } : { allowed: true };
  }

  private bucket(key: string, limit: BucketLimit): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.dropFullBuckets();
      bucket = new TokenBucket(limit.ratePerSecond, limit.burst, this.now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  private dropFullBuckets(): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(key);
  }
}

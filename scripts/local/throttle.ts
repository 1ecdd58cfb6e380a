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
    const now = this.now();
    this.tokens = Math.min(this.burstLimit, this.tokens + ((now - this.refilledAt) / 1000) * this.rateLimit);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.rateLimit)) };
  }
}

/**
 * Request throttling of the API, applied to every route of the deployed HTTP API's `$default` stage
 * (infra/constructs/http-api.ts) and meant to be applied by the local gateway too, so `npm start`
 * rejects bursts the same way AWS does (429 Too Many Requests).
 *
 * Why these numbers: the account-level API Gateway quota is shared by every API in the region
 * (10,000 rps by default); capping this API well below it keeps a misbehaving client or a retry
 * storm from starving other APIs and from running up Lambda concurrency and DynamoDB on-demand
 * cost. `rateLimit` is the steady-state requests per second (token bucket refill), `burstLimit`
 * the bucket size, i.e. how many requests may arrive at once. Raise them deliberately, with the
 * Lambda concurrency limit and the cost estimate in mind.
 */
export const API_THROTTLING = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * Per-client limits, so that no single caller can starve another (docs/security.md). A request is
 * counted against:
 * - `perCredential`: its Authorization header (whitespace runs collapsed), when it sends one;
 * - `perAddressAnonymous`: its client address, when it sends no Authorization header;
 * - `perAddressCredentialed`: its client address, when it sends one: a caller rotating made-up tokens
 *   still shares one budget per address.
 * One address can therefore use at most 25 + 50 = 75 of the stage's 100 requests/s, and any other
 * caller keeps the rest. Deployed as AWS WAF rate-based rules in front of the API (infra/constructs/
 * client-limits.ts: `ratePerSecond x windowSeconds` requests per window); the local gateway applies
 * the same keys as token buckets (`ratePerSecond` refill, `burst` size).
 */
export const CLIENT_LIMITS = {
  windowSeconds: 60,
  perCredential: { ratePerSecond: 25, burst: 50 },
  perAddressAnonymous: { ratePerSecond: 25, burst: 50 },
  perAddressCredentialed: { ratePerSecond: 50, burst: 100 },
} as const;

/** The credential key of a request: its Authorization header with whitespace runs collapsed (WAF's COMPRESS_WHITE_SPACE). */
export function credentialKey(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization === '') return undefined;
  return authorization.replace(/\s+/g, ' ');
}

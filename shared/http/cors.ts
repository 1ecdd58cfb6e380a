import type { HttpMethod } from '#shared/routes.ts';

/**
 * CORS for browser apps (docs/security.md, "Browsers on other origins"): ONE configuration that API Gateway's
 * `corsPreflight` (infra/constructs/http-api.ts) and the local gateway (scripts/local/gateway.ts) both read, so a
 * browser meets the same rules on `npm start` as on a deployment. The allowed origins are the deployment's
 * (CDK context `corsAllowOrigins`, `CORS_ALLOW_ORIGINS` locally); without any, no origin is allowed and a
 * preflight is answered like any unknown request (404/405), as before CORS existed.
 */
export interface CorsSettings {
  /** Exact origins (`https://console.example.com`), or `*` for any. */
  allowOrigins: readonly string[];
  allowMethods: readonly HttpMethod[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

/** What a browser app sends beyond the CORS-safelisted headers: the token, a JSON body, the money POSTs' key. */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key'] as const;
/**
 * Answer headers a script may read besides the safelisted ones: paging, when to retry, the request's id for
 * support, a replayed Idempotency-Key answer, a 401's scheme, and a deprecated route's dates (docs/versioning.md).
 */
export const CORS_EXPOSE_HEADERS = ['Link', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed', 'WWW-Authenticate', 'Deprecation', 'Sunset'] as const;
const ALLOW_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** How long a browser may reuse a preflight's answer (10 minutes: Chromium's own cap is 2 hours). */
const MAX_AGE_SECONDS = 600;
/** At most this many origins per deployment: each is compared on every cross-origin request. */
export const MAX_CORS_ORIGINS = 20;

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

/**
 * The allowed origins from their configured text: a comma-separated list (`*` alone for any). Refuses, at
 * deploy or start time, what API Gateway would refuse or a browser never sends: paths, trailing slashes,
 * upper case, wildcards inside a name, more than MAX_CORS_ORIGINS.
 */
export function parseAllowedOrigins(configured: string | readonly string[] | undefined): string[] {
  const origins = (typeof configured === 'string' ? configured.split(',') : (configured ?? [])).map((origin) => origin.trim()).filter(Boolean);
  if (origins.length > MAX_CORS_ORIGINS) throw new Error(`corsAllowOrigins: at most ${MAX_CORS_ORIGINS} origins, got ${origins.length}`);
  if (origins.includes('*') && origins.length > 1) throw new Error('corsAllowOrigins: `*` allows every origin; list it alone');
  for (const origin of origins) {
    if (origin !== '*' && !ORIGIN.test(origin)) throw new Error(`corsAllowOrigins: "${origin}" is not an origin (scheme://host[:port], lower case, no path)`);
  }
  return origins;
}

/** The settings for these origins, or undefined when none is allowed (then no CORS at all). */
export function corsSettings(allowOrigins: readonly string[]): CorsSettings | undefined {
  if (allowOrigins.length === 0) return undefined;
  return { allowOrigins, allowMethods: ALLOW_METHODS, allowHeaders: CORS_ALLOW_HEADERS, exposeHeaders: CORS_EXPOSE_HEADERS, maxAgeSeconds: MAX_AGE_SECONDS };
}

/** The Access-Control-Allow-Origin value for a request's Origin, or undefined when that origin is not allowed. */
function allowedOrigin(settings: CorsSettings, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (settings.allowOrigins.includes('*')) return '*';
  return settings.allowOrigins.includes(origin) ? origin : undefined;
}

/** A preflight: OPTIONS naming the method the browser wants to send (Fetch standard). */
export function isPreflight(method: string | undefined, headers: { origin?: string; 'access-control-request-method'?: string }): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/**
 * The CORS headers for a request's Origin: its Access-Control-Allow-Origin, `headers`, and `Vary: Origin` unless every
 * origin is allowed (the answer then does not depend on it); none of them for an origin not allowed.
 */
function headersForOrigin(settings: CorsSettings, origin: string | undefined, headers: Record<string, string>): Record<string, string> {
  const allowed = allowedOrigin(settings, origin);
  if (allowed === undefined) return {};
  return { 'Access-Control-Allow-Origin': allowed, ...headers, ...(allowed === '*' ? {} : { Vary: 'Origin' }) };
}

/** A preflight's answer headers, as API Gateway sends them: none of them for an origin not allowed. */
export function preflightHeaders(settings: CorsSettings, origin: string | undefined): Record<string, string> {
  return headersForOrigin(settings, origin, {
    'Access-Control-Allow-Methods': settings.allowMethods.join(','),
    'Access-Control-Allow-Headers': settings.allowHeaders.join(','),
    'Access-Control-Max-Age': String(settings.maxAgeSeconds),
  });
}

/** The headers API Gateway adds to an answer to a cross-origin request from an allowed origin. */
export function responseCorsHeaders(settings: CorsSettings, origin: string | undefined): Record<string, string> {
  return headersForOrigin(settings, origin, { 'Access-Control-Expose-Headers': settings.exposeHeaders.join(',') });
}

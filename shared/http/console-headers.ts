/**
 * The merchant console's answers (docs/console.md), one definition for both servers of /console/*: CloudFront's
 * response headers policy and cache settings (infra/constructs/console-site.ts) and the local gateway
 * (scripts/local/console-files.ts), so what `npm start` serves is what the distribution sends.
 */

/** Where the console lives on the API's origin: the distribution's behaviour and the gateway's prefix. */
export const CONSOLE_PATH = '/console/';

/**
 * Only this origin's own files run or load: no inline script or style (Vite's build emits neither), no eval, no
 * frames, no plugins, no form posts elsewhere. `connect-src 'self'`: the API is on the same origin (the same
 * distribution), so a token is never sent anywhere else.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** HSTS: two years, subdomains included (CloudFront's security headers policy sends the same). */
export const CONSOLE_HSTS_SECONDS = 63_072_000;

/** The security headers on every console answer, as the browser receives them. */
export const CONSOLE_SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': `max-age=${CONSOLE_HSTS_SECONDS}; includeSubDomains`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const;

/** The headers the distribution sends as custom headers (CloudFront's security headers behaviour has no field for them). */
export const CONSOLE_CUSTOM_HEADERS = ['Cross-Origin-Opener-Policy', 'Permissions-Policy'] as const;

/**
 * index.html (and config.json) are asked again on every load, so a deployment shows at once; the hashed assets
 * under assets/ never change under their name, so browsers and the edge keep them for a year.
 */
export const CONSOLE_CACHE_CONTROL = {
  document: 'no-cache',
  hashedAsset: 'public, max-age=31536000, immutable',
} as const;

/** Vite's build puts every hashed file under this folder of console/dist. */
export const CONSOLE_ASSETS_FOLDER = 'assets/';

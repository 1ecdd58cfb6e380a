/**
 * The merchant console's answers (docs/console.md), one definition for both servers of /console/*: CloudFront's
 * response headers policy and cache settings (infra/constructs/console-site.ts) and the local gateway
 * (scripts/local/console-files.ts), so what `npm start` serves is what the distribution sends.
 */

/** Where the console lives on the API's origin: the distribution's behaviour and the gateway's prefix. */
export const CONSOLE_PATH = '/console/';

/**
 * Only this origin's own files run or load: no inline script or style (Vite's build emits neither), no eval, no
 * frames, no plugins, no form posts elsewhere. The API is on the same origin (the same distribution), so a token is
 * never sent anywhere else. One other origin is allowed, for pictures only: the images bucket (`imagesOrigin`,
 * exactly that origin, no wildcard), where the browser posts a location's picture (a presigned POST, no token) and
 * from which pictures load (the image routes redirect to signed URLs there). Deployed it is
 * `https://<bucket>.s3.<region>.amazonaws.com` (the address the SDK signs, infra/constructs/images.ts); locally
 * s3rver's endpoint. Without one (no image store), only 'self'.
 */
export function consoleContentSecurityPolicy(imagesOrigin?: string): string {
  const images = imagesOrigin ? ` ${imagesOrigin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${images}`,
    "font-src 'self'",
    `connect-src 'self'${images}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** HSTS: two years, subdomains included (CloudFront's security headers policy sends the same). */
export const CONSOLE_HSTS_SECONDS = 63_072_000;

/** The security headers on every console answer, as the browser receives them (`imagesOrigin`: see the CSP). */
export function consoleSecurityHeaders(imagesOrigin?: string) {
  return {
    'Content-Security-Policy': consoleContentSecurityPolicy(imagesOrigin),
    'Strict-Transport-Security': `max-age=${CONSOLE_HSTS_SECONDS}; includeSubDomains`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  } as const;
}

/**
 * The images bucket's one CORS rule (infra/constructs/images.ts, and s3rver's locally): the console's origin may
 * POST the presigned upload form and read S3's answer. The form sends no header of its own, so none is allowed (the
 * browser's preflight, sent because the page watches the upload's progress, asks for POST alone); pictures load as
 * plain images, which need no CORS.
 */
export function consoleUploadCorsRule(consoleOrigin: string) {
  return { allowedOrigins: [consoleOrigin], allowedMethods: ['POST'] as const, maxAgeSeconds: 3000 };
}

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

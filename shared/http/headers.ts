import { WWW_AUTHENTICATE } from '#shared/errors.ts';

/**
 * Headers on every answer: `Server: LevelUp` (below), `nosniff` (a JSON body is never run as script), `no-store` unless the handler
 * chose its own caching (tokens, QR data and cards must never sit in a shared or browser cache; the
 * docs page and its assets choose their own), and a 401's `WWW-Authenticate` (RFC 7235).
 */
/**
 * iOS and Android give 401 ("log in again"), 404 and 501 their meaning only when the answer carries
 * `Server: LevelUp`; without it those statuses become a generic server error. Every answer carries it (the
 * CloudFront response headers policy sets it too, over anything in between: infra/constructs/edge-distribution.ts).
 */
export const SERVER_HEADER = { Server: 'LevelUp' } as const;

export function securityHeaders(status: number, headers: Record<string, string> = {}): Record<string, string> {
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  return {
    ...SERVER_HEADER,
    'X-Content-Type-Options': 'nosniff',
    ...(has('cache-control') ? {} : { 'Cache-Control': 'no-store' }),
    ...(status === 401 && !has('www-authenticate') ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
    ...headers,
  };
}

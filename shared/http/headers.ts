import { WWW_AUTHENTICATE } from '#shared/errors.ts';

/**
 * Headers on every answer: `nosniff` (a JSON body is never run as script), `no-store` unless the handler
 * chose its own caching (tokens, QR data and cards must never sit in a shared or browser cache; the
 * docs page and its assets choose their own), and a 401's `WWW-Authenticate` (RFC 7235).
 */
export function securityHeaders(status: number, headers: Record<string, string> = {}): Record<string, string> {
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  return {
    'X-Content-Type-Options': 'nosniff',
    ...(has('cache-control') ? {} : { 'Cache-Control': 'no-store' }),
    ...(status === 401 && !has('www-authenticate') ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
    ...headers,
  };
}

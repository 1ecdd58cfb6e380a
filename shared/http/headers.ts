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
  const answer: Record<string, string> = {};
  addSecurityHeaders(answer, status, headers);
  return answer;
}

/**
 * Adds to `target`, in this order, the security headers, then `leading` (X-Request-Id), then `headers`
 * (which replace any header already there that they name exactly). Assignments into one object: the request
 * pipeline calls this on every answer (shared/http/response.ts respond).
 */
export function addSecurityHeaders(
  target: Record<string, string>,
  status: number,
  headers: Record<string, string> | undefined,
  leading?: string,
  leadingValue?: string,
): void {
  let cacheControl = false;
  let wwwAuthenticate = false;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'cache-control') cacheControl = true;
    else if (lower === 'www-authenticate') wwwAuthenticate = true;
  }
  target.Server = SERVER_HEADER.Server;
  target['X-Content-Type-Options'] = 'nosniff';
  if (!cacheControl) target['Cache-Control'] = 'no-store';
  if (status === 401 && !wwwAuthenticate) target['WWW-Authenticate'] = WWW_AUTHENTICATE;
  if (leading !== undefined) target[leading] = leadingValue as string;
  for (const name in headers) target[name] = headers[name]!;
}

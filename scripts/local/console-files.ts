/**
 * The merchant console's files as the distribution serves them (docs/console.md): /console/* from console/dist,
 * index.html for any client route, the same cache and security headers as CloudFront's (shared/http/console-headers.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_ASSETS_FOLDER, CONSOLE_CACHE_CONTROL, CONSOLE_PATH, consoleSecurityHeaders } from '#shared/http/console-headers.ts';

const DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * The image store's origin as the browser reaches it: s3rver's endpoint (S3_ENDPOINT, path-style), where a
 * location's picture is posted and from which pictures load; read per request, as a test points it at its own s3rver.
 */
export function localImagesOrigin(): string | undefined {
  const endpoint = process.env.S3_ENDPOINT;
  return endpoint ? new URL(endpoint).origin : undefined;
}

const securityHeaders = () => consoleSecurityHeaders(localImagesOrigin());

const answer = (status: number, cacheControl: string, contentType: string, body: string | Buffer): StaticAnswer => ({
  status,
  headers: { ...securityHeaders(), 'Cache-Control': cacheControl, 'Content-Type': contentType },
  body,
});

/**
 * The app whose key staff sign in through. Deployed, config.json is a file of the bucket (the stack's `consoleApiKey`
 * context); locally `npm start` sets CONSOLE_API_KEY to the demo app's key, a test to its own app's.
 */
function configFile(): StaticAnswer {
  const apiKey = process.env.CONSOLE_API_KEY;
  return answer(
    apiKey ? 200 : 404,
    CONSOLE_CACHE_CONTROL.document,
    'application/json',
    JSON.stringify(apiKey ? { api_key: apiKey } : { message: 'Not configured' }),
  );
}

/** A file of console/dist by its path under /console/, or undefined (missing, a folder, or outside dist). */
function distFile(relative: string): string | undefined {
  const path = normalize(join(DIST, relative));
  if (!path.startsWith(DIST) || path.includes(`${sep}..${sep}`)) return undefined;
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
}

/** The answer for a request under /console (undefined: not the console's, the API's routes take it). */
export function consoleAnswer(method: string, pathname: string): StaticAnswer | undefined {
  if (pathname === CONSOLE_PATH.slice(0, -1)) return { status: 301, headers: { ...securityHeaders(), Location: CONSOLE_PATH }, body: '' };
  if (!pathname.startsWith(CONSOLE_PATH)) return undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const refused = answer(405, 'no-store', 'text/plain; charset=utf-8', 'Method not allowed');
    return { ...refused, headers: { ...refused.headers, Allow: 'GET, HEAD' } };
  }
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(CONSOLE_PATH.length));
  } catch {
    return answer(400, 'no-store', 'text/plain; charset=utf-8', 'Bad path');
  }
  if (relative === 'config.json') return configFile();
  const file = relative === '' ? undefined : distFile(relative);
  if (file) {
    const hashed = relative.startsWith(CONSOLE_ASSETS_FOLDER);
    return answer(
      200,
      hashed ? CONSOLE_CACHE_CONTROL.hashedAsset : CONSOLE_CACHE_CONTROL.document,
      CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      readFileSync(file),
    );
  }
  // A missing hashed asset is an old page asking for a file the last build replaced: a 404, not the page.
  if (relative.startsWith(CONSOLE_ASSETS_FOLDER)) return answer(404, 'no-store', 'text/plain; charset=utf-8', 'Not found');
  const index = distFile('index.html');
  if (!index) return answer(503, 'no-store', 'text/plain; charset=utf-8', 'The console is not built: run `npm run console:build`.');
  // Any other path is a client route of the single-page app: its index.html, which routes it.
  return answer(200, CONSOLE_CACHE_CONTROL.document, CONTENT_TYPES['.html']!, readFileSync(index));
}

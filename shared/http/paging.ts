/**
 * Paging of the list endpoints, one way: the `page` number and the opaque `cursor` a request may carry,
 * and the absolute `Link: <url>; rel="next"` header of the next page (real clients follow it exactly
 * as given, so it always carries scheme and host).
 */
import * as z from 'zod';
import { schema } from '#shared/schemas/registry.ts';

const PAGE_MESSAGE = 'must be a whole number of 1 or more';

/** `page`: 1-based. Absent, empty or `null` (what clients send for "no page") is no page at all. */
export const pageQuery = /* @__PURE__ */ schema(() => z.preprocess(
  (value) => (value === '' || value === 'null' ? undefined : value),
  z
    .string()
    .trim()
    .regex(/^\+?\d+$/, PAGE_MESSAGE)
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value >= 1, PAGE_MESSAGE)
    .optional(),
));

/** An opaque position this API put in its own Link (base64url of a sort key); `isValid` checks the decoded key. */
export function cursorQuery(isValid: (decoded: string) => boolean) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const decoded = Buffer.from(value, 'base64url').toString('utf8');
      if (!isValid(decoded)) {
        context.addIssue({ code: 'custom', message: 'is not a valid position' });
        return z.NEVER;
      }
      return decoded;
    });
}

export function encodeCursor(position: string): string {
  return Buffer.from(position, 'utf8').toString('base64url');
}

/** The request's query parameters except the paging ones, carried onto the next page as sent. */
export function carriedQuery(parameters: Record<string, string | undefined> | undefined, paging: readonly string[]): URLSearchParams {
  const carried = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (!paging.includes(name) && value !== undefined) carried.set(name, value);
  }
  return carried;
}

/** The `Link` header of the next page: `baseUrl` + `path`, with `query`, as the WHATWG URL parser writes it. */
export function nextPageLink(baseUrl: string, path: string, query: URLSearchParams): { Link: string } {
  const prefix = PLAIN_PATH.test(path) ? normalizedBase(baseUrl) : undefined;
  if (prefix === undefined) {
    const next = new URL(`${baseUrl}${path}`);
    for (const [name, value] of query) next.searchParams.set(name, value);
    return { Link: `<${next.toString()}>; rel="next"` };
  }
  // The same text without parsing a URL per page: the base as the parser normalises it (kept per base), the
  // plain path as given (nothing in it to normalise), then the parameters set in order as above.
  const search = new URLSearchParams();
  for (const [name, value] of query) search.set(name, value);
  const text = search.toString();
  return { Link: `<${prefix}${path}${text === '' ? '' : `?${text}`}>; rel="next"` };
}

/** Segments of letters, digits, `_` and `-` only: no dot segment, nothing to percent-encode. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)+$/;
/** Probe segment: a base is used as a prefix only when `base + PROBE` parses to exactly `prefix + PROBE`. */
const PROBE = '/probe';
/** Bases seen (one or two per function: the configured URL, or API Gateway's domain and stage); bounded. */
const normalizedBases = new Map<string, string | null>();

/**
 * The base URL as the URL parser writes it before a plain path: scheme and host lower-cased, default port
 * dropped, the stage as encoded. null (never a prefix) when the base holds a query or fragment, or anything
 * else that a following path would change.
 */
function normalizedBase(baseUrl: string): string | undefined {
  let prefix = normalizedBases.get(baseUrl);
  if (prefix === undefined) {
    const probe = new URL(`${baseUrl}${PROBE}`);
    const href = probe.href;
    prefix = probe.search === '' && probe.hash === '' && href.endsWith(PROBE) ? href.slice(0, -PROBE.length) : null;
    if (normalizedBases.size >= 32) normalizedBases.clear();
    normalizedBases.set(baseUrl, prefix);
  }
  return prefix ?? undefined;
}

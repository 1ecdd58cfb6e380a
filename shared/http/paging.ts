/**
 * Paging of the list endpoints, one way: the `page` number and the opaque `cursor` a request may carry,
 * the absolute `Link: <url>; rel="next"` header of the next page (real clients follow it exactly
 * as given, so it always carries scheme and host), and the one rule of what a page answers (`pageAnswer`).
 */
import * as z from '#shared/schemas/zod.ts';
import { unprocessable } from '#shared/errors.ts';
import { noContent, ok, type ApiResponse } from '#shared/http/response.ts';

const PAGE_MESSAGE = 'must be a whole number of 1 or more';

/** `page`: 1-based. Absent, empty or `null` (what clients send for "no page") is no page at all. */
export const pageQuery = z.pipe(
  z.transform((value: unknown) => (value === '' || value === 'null' ? undefined : value)),
  z.optional(
    z
      .pipe(z.string().check(z.trim(), z.regex(/^\+?\d+$/, PAGE_MESSAGE)), z.transform(Number))
      .check(z.refine((value) => Number.isSafeInteger(value) && value >= 1, PAGE_MESSAGE)),
  ),
);

/** Longest cursor accepted: the sort keys this API puts in its Links are well under 100 characters. */
const MAX_CURSOR_LENGTH = 400;

/** An opaque position this API put in its own Link (base64url of a sort key); `isValid` checks the decoded key. */
export function cursorQuery(isValid: (decoded: string) => boolean) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const decoded = value.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').toString('utf8') : '';
      if (decoded === '' || !isValid(decoded)) {
        context.issues.push({ code: 'custom', message: 'is not a valid position', input: context.value });
        return z.NEVER;
      }
      return decoded;
    }),
  );
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

/**
 * Deepest `?page=N` a list with a cursor serves without it: skipping pages reads every item above them, so
 * a deeper page is refused (422 `too_deep`) rather than read; the Link of each page resumes with one
 * bounded read, however deep.
 */
export const MAX_PAGE_WITHOUT_CURSOR = 100;

/** Refuses a page number past MAX_PAGE_WITHOUT_CURSOR when no cursor says where it starts. */
export function requireReachablePage(query: { page?: number; cursor?: string }): void {
  if (query.cursor === undefined && (query.page ?? 1) > MAX_PAGE_WITHOUT_CURSOR) {
    throw unprocessable('request', 'page', `Pages beyond ${MAX_PAGE_WITHOUT_CURSOR} are reached by following the Link header`, 'too_deep');
  }
}

/** A page's position in a list: the path (on the request's base URL) and query of a list request. */
export interface ListPosition {
  path: string;
  query: URLSearchParams;
}

/**
 * The position after a page of a list that carries the request's own parameters forward (filters, image
 * sizes, distance origin): those as sent, and the paging ones (`paging`; an undefined one is dropped).
 */
export function carriedPosition(
  parameters: Record<string, string | undefined> | undefined,
  path: string,
  paging: Record<string, string | undefined>,
): ListPosition {
  const query = carriedQuery(parameters, Object.keys(paging));
  for (const [name, value] of Object.entries(paging)) if (value !== undefined) query.set(name, value);
  return { path, query };
}

/** The position after a page of a cursor-paged list: the next page's number, and the sort key it starts below or after. */
export function cursorPosition(path: string, page: number, sortKey: string): ListPosition {
  return { path, query: new URLSearchParams({ page: String(page + 1), cursor: encodeCursor(sortKey) }) };
}

export interface Page<T> {
  items: readonly T[];
  /** Where the page after this one starts, from this page's last item (the Link of every page with items). */
  after: (last: T) => ListPosition;
  /**
   * Where a page without items resumes when the list could not yet tell that nothing follows (a type
   * filter whose read budget ran out before it found any): a 200 `[]` with this Link, not the end.
   */
  resume?: ListPosition;
}

/** How a list answers a position with nothing after it: 204 (the contract), or `200 []` for a client that maps the body. */
export type EndOfList = 'no-content' | 'empty-list';

/**
 * What one page of any list answers (docs/app-surface.md "Paging"; every paged list uses this):
 * - items: 200 and `Link: <the position after the last item>; rel="next"`, on the last page too: clients
 *   follow Link until 204 (the contract), and one that stored the last Link resumes from it later
 *   (200: what came since, 204: nothing yet);
 * - no items: the end, 204 with no body and no Link (or `200 []` with no Link where `end` says so).
 * `render` turns the items into the body (an array) or, for bodies stored as JSON text, the text itself.
 */
export function pageAnswer<T>(
  baseUrl: string,
  page: Page<T>,
  render: (items: readonly T[]) => unknown[] | { json: string },
  end: EndOfList = 'no-content',
): ApiResponse {
  const last = page.items.at(-1);
  const position = last === undefined ? page.resume : page.after(last);
  if (position === undefined) return end === 'no-content' ? noContent() : ok([]);
  const link = nextPageLink(baseUrl, position.path, position.query);
  const body = render(page.items);
  if (Array.isArray(body)) return ok(body, link);
  return { status: 200, rawBody: body.json, headers: { 'Content-Type': 'application/json; charset=utf-8', ...link } };
}

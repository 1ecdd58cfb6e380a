/**
 * Paging of the list endpoints, one way: the `page` number and the opaque `cursor` a request may carry,
 * and the absolute `Link: <url>; rel="next"` header of the next page (real clients follow it exactly
 * as given, so it always carries scheme and host).
 */
import * as z from 'zod';

const PAGE_MESSAGE = 'must be a whole number of 1 or more';

/** `page`: 1-based. Absent, empty or `null` (what clients send for "no page") is no page at all. */
export const pageQuery = z.preprocess(
  (value) => (value === '' || value === 'null' ? undefined : value),
  z
    .string()
    .trim()
    .regex(/^\+?\d+$/, PAGE_MESSAGE)
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value >= 1, PAGE_MESSAGE)
    .optional(),
);

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

/** The `Link` header of the next page: `baseUrl` + `path`, with `query`. */
export function nextPageLink(baseUrl: string, path: string, query: URLSearchParams): { Link: string } {
  const next = new URL(`${baseUrl}${path}`);
  for (const [name, value] of query) next.searchParams.set(name, value);
  return { Link: `<${next.toString()}>; rel="next"` };
}

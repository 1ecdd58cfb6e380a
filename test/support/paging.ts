import { expect } from 'vitest';
import type { ApiCall, ApiResult, TestApi } from './api.ts';
import { nextLink } from './locations.ts';

export interface WalkOptions<T> {
  /** The credential each request sends (the first and every followed Link alike). */
  call?: Pick<ApiCall, 'token' | 'authorization' | 'body'>;
  /** What identifies an item: no two items of a walk may share one. */
  keyOf: (item: T) => string | number;
  /** Query parameters of the first URL every Link must carry with the same value (the list's filters). */
  carries?: readonly string[];
  /**
   * How the walk must end: 204 with no body and no Link (the contract), or `200 []` without a Link where
   * the list answers the Ruby gem, which maps the body.
   */
  end?: 'no-content' | 'empty-list';
  /** Pages a walk may take before it fails as endless. */
  maxPages?: number;
}

export interface Walk<T> {
  /** Every item, in the order the pages gave them. */
  items: T[];
  /** The 200 pages (the final 204 or `[]` excluded). */
  pages: ApiResult<T[]>[];
  /** Each requested URL: the first, then every Link followed, the last one answering the end. */
  urls: string[];
}

/**
 * Walks a list as the SDKs do (docs/app-surface.md "Paging"): the first URL without paging parameters, then
 * each `Link: <url>; rel="next"` as given, until the end. Fails unless every 200 page has items and a Link
 * to an absolute URL on the API's own scheme, host and stage, on the list's own path, carrying the filters;
 * the end answers 204 (no body, no Link) or, for `empty-list`, 200 `[]` without a Link; no item is seen twice.
 */
export async function walkPages<T>(api: TestApi, firstUrl: string, options: WalkOptions<T>): Promise<Walk<T>> {
  const first = new URL(firstUrl, api.baseUrl);
  const walk: Walk<T> = { items: [], pages: [], urls: [] };
  const seen = new Set<string | number>();
  let url = first.toString();
  for (;;) {
    expect(walk.urls.length, `more than ${options.maxPages ?? 50} pages from ${firstUrl}`).toBeLessThan(options.maxPages ?? 50);
    walk.urls.push(url);
    const response: ApiResult<T[]> = await api.call('GET', url, options.call);
    if (isEnd(response, options.end ?? 'no-content')) break;
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    expect(response.body.length, `${url} answered 200 with no items: the end is ${options.end ?? 'no-content'}`).toBeGreaterThan(0);
    walk.pages.push(response);
    for (const item of response.body) {
      const key = options.keyOf(item);
      expect(seen.has(key), `${String(key)} seen twice`).toBe(false);
      seen.add(key);
      walk.items.push(item);
    }
    const next = nextLink(response.headers);
    expect(next, `${url}: a page with items links the page after it`).toBeDefined();
    const linked = new URL(next!);
    expect(`${linked.protocol}//${linked.host}`).toBe(api.baseUrl);
    expect(linked.pathname).toBe(first.pathname);
    for (const name of options.carries ?? []) expect(linked.searchParams.get(name), `${name} carried forward`).toBe(first.searchParams.get(name));
    url = next!;
  }
  return walk;
}

/** Whether a response is the list's end, checked in full when it is: no Link, and no body (204) or `[]`. */
function isEnd(response: ApiResult, end: 'no-content' | 'empty-list'): boolean {
  if (end === 'no-content' ? response.status !== 204 : !(response.status === 200 && Array.isArray(response.body) && response.body.length === 0)) return false;
  if (end === 'no-content') expect(response.text).toBe('');
  expect(response.headers.get('link')).toBeNull();
  return true;
}

import { describe, expect, it } from 'vitest';
import { nextPageLink } from '#shared/http/paging.ts';

/** The Link header as written before the per-base prefix (shared/http/paging.ts): one URL parse per page. */
function parsedLink(baseUrl: string, path: string, query: URLSearchParams): string {
  const next = new URL(`${baseUrl}${path}`);
  for (const [name, value] of query) next.searchParams.set(name, value);
  return `<${next.toString()}>; rel="next"`;
}

const BASES = [
  'https://api.example.com',
  'https://API.Example.COM',
  'https://api.example.com:443',
  'http://127.0.0.1:3000',
  'http://localhost:80',
  'https://abc123.execute-api.eu-west-1.amazonaws.com/prod',
  'https://h.example/stage/',
  'https://h.example/',
  'https://h.example/a/..',
  'https://h.example/a/%2e',
  'https://h.example/st age',
  'https://h.example/ünï',
  'https://h.example\\',
  'https://h.example?x=1',
  'https://h.example#frag',
  'https://h.example/a?b',
  'https://bücher.example',
  'https://[::1]:8443/v',
  'https://user:pass@h.example',
];
const PATHS = [
  '/v15/apps/12/locations',
  '/v14/locations',
  '/v15/events',
  '/v15/apps/orders',
  '/v14/locations/7/orders',
  '/v15/a.b',
  '/v15/../x',
  '/v15/%41',
  '/v15/a b',
];
const QUERIES = [
  new URLSearchParams({ page: '2', cursor: 'b3JkZXIjMTIz' }),
  new URLSearchParams({ page: '3', after: '45', 'image[width]': '100', fulfillment_types: 'pickup,delivery' }),
  new URLSearchParams([
    ['since', '2026-11-23T20:00:00.000Z'],
    ['last_id', '9'],
    ['since', 'again'],
    ['x y', 'a&b=c/é ☕'],
  ]),
  new URLSearchParams(),
];

describe('the next-page Link', () => {
  it('is exactly what parsing base + path as a URL and setting the parameters writes', () => {
    for (let round = 0; round < 2; round++) {
      for (const base of BASES) {
        for (const path of PATHS) {
          for (const query of QUERIES) expect(nextPageLink(base, path, query).Link, `${base} ${path} ${query.toString()}`).toBe(parsedLink(base, path, query));
        }
      }
    }
  });

  it('fails as the URL parser does on a base that is no URL', () => {
    expect(() => nextPageLink('https://exa mple.com', '/v15/events', new URLSearchParams({ page: '2' }))).toThrow(TypeError);
    expect(() => nextPageLink('://', '/v15/events', new URLSearchParams())).toThrow(TypeError);
  });
});

/**
 * A typed client for this API: openapi-fetch over the types openapi-typescript generates from docs/openapi.json
 * (schema.d.ts, written by `npm run openapi`). Paths, path and query parameters, request bodies, answers and
 * error bodies are all checked by the compiler. It imports nothing of the service, so the folder can be copied
 * into an app or a browser bundle as it is (README.md).
 */
import createClient, { type Client, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.d.ts';

export type { components, operations, paths };
export type LevelUpClient = Client<paths>;
/** The error body every 4xx and 5xx with a body carries: `[{"error": {"object", "property", "message", "code"}}]`. */
export type ApiErrors = components['schemas']['Errors'];
export type ApiErrorDetail = components['schemas']['ErrorDetail'];

export interface LevelUpClientOptions {
  /** The API's base URL: a deployment's `ApiUrl` (or its custom domain), or `http://127.0.0.1:3000` for `npm start`. */
  baseUrl: string;
  /** Sent as `Authorization: token <token>`; a function is asked before every request (a token obtained by a login later). */
  token?: string | (() => string | undefined);
  /** Another fetch (tests, instrumentation); defaults to the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createLevelUpClient(options: LevelUpClientOptions): LevelUpClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { Accept: 'application/json' }, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { token } = options;
  const tokenNow = typeof token === 'function' ? token : () => token;
  client.use({
    onRequest({ request }) {
      const value = tokenNow();
      // A request that names its own Authorization (a merchant token with a customer's: `token merchant="M", user="U"`) keeps it.
      if (value && !request.headers.has('Authorization')) request.headers.set('Authorization', `token ${value}`);
      return request;
    },
  });
  return client;
}

/** A non-2xx answer where the caller wanted a success: the status, the API's own error array and the request id to quote. */
export class LevelUpApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiErrors | undefined,
    readonly requestId?: string,
  ) {
    super(`HTTP ${status}: ${errors?.map(({ error }) => `${error.object}.${error.property} ${error.message}`).join('; ') ?? 'no error body'}`);
    this.name = 'LevelUpApiError';
  }
}

// ---- Idempotency-Key: one key per logical operation, the same on every retry of it ----

export interface IdempotentRetryOptions {
  /** The operation's key. Store it with the operation to resume it after a restart; default a new UUID v4. */
  key?: string;
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** The longest wait between attempts in ms (default 30 000); a longer Retry-After is cut to it. */
  maxDelayMs?: number;
  /** How to wait (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

/** A fresh key for one logical operation (a UUID v4, as the API's documentation suggests). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/**
 * Answers worth sending again with the same key: 409 (the first attempt still in flight, or a race lost: the
 * API says when with Retry-After), 429 and 5xx (nothing was stored under the key). Every other answer, 2xx and
 * 4xx, is final and stored under the key: sending it again would only replay it.
 */
const retryable = (status: number): boolean => status === 409 || status === 429 || status >= 500;

/** Retry-After (seconds) when the answer has one, else an exponential backoff from 500 ms, with jitter, never over the cap. */
function waitBefore(attempt: number, response: Response | undefined, maxDelayMs: number): number {
  const retryAfter = Number(response?.headers.get('Retry-After'));
  const base = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : 500 * 2 ** (attempt - 1);
  return Math.min(maxDelayMs, base * (1 + 0.2 * Math.random()));
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `send` with one Idempotency-Key until it answers something final: a network failure (an answer lost on the
 * way back), a 409, 429 or 5xx is sent again, with the SAME key, so a charge, load or refund happens at most
 * once however often it is retried, and a retry of one that went through answers the first answer again
 * (`Idempotent-Replayed: true`). Returns the last answer; throws the last network failure when every attempt failed.
 *
 * ```ts
 * const { data, error } = await withIdempotencyKey((key) =>
 *   client.POST('/v15/completed_orders', { params: { header: { 'Idempotency-Key': key } }, body }),
 * );
 * ```
 */
export async function withIdempotencyKey<Answer extends { response: Response }>(
  send: (idempotencyKey: string) => Promise<Answer>,
  options: IdempotentRetryOptions = {},
): Promise<Answer> {
  const key = options.key ?? newIdempotencyKey();
  const attempts = Math.max(1, options.attempts ?? 5);
  const sleep = options.sleep ?? sleepFor;
  for (let attempt = 1; ; attempt++) {
    let answer: Answer | undefined;
    try {
      answer = await send(key);
    } catch (failure) {
      if (attempt >= attempts) throw failure;
    }
    if (answer && (!retryable(answer.response.status) || attempt >= attempts)) return answer;
    await sleep(waitBefore(attempt, answer?.response, options.maxDelayMs ?? 30_000));
  }
}

// ---- Paging: follow `Link: <url>; rel="next"` until 204 ----

/** An object type's declared keys, without its index signature (`[name: string]: unknown`). */
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type PageBody<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { headers: infer Headers; content: { 'application/json': infer Body } } } };
}
  ? 'Link' extends DeclaredKeys<Headers>
    ? Body
    : never
  : never;
/** The GET paths whose 200 the document declares with a `Link` header: the paged lists. */
export type PagedPath = { [P in keyof paths]: [PageBody<P>] extends [never] ? never : P }[keyof paths];
/** One item of a paged list's page. */
export type PageItem<P extends PagedPath> = PageBody<P> extends readonly (infer Item)[] ? Item : never;
type PageInit<P extends PagedPath> = MaybeOptionalInit<paths[P], 'get'>;
type PageInitArgument<P extends PagedPath> = undefined extends PageInit<P> ? [init?: PageInit<P>] : [init: PageInit<P>];

/** The URL of a `Link: <url>; rel="next"` header, if the answer has one. */
export function nextPageUrl(response: Response): string | undefined {
  const link = response.headers.get('Link');
  return link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1] : undefined;
}

/** Sends the request to the Link's URL instead, with everything else (Authorization, Accept) as the client made it. */
const toUrl = (url: string): Middleware => ({ onRequest: ({ request }) => new Request(url, request) });

/**
 * The pages of a paged list, first to last: the first request as typed, then each `Link: <url>; rel="next"`
 * followed, until an answer is 204 (or, on the one list that answers so, a page without a Link). A Link to
 * another origin is refused rather than sent the token. A non-2xx page throws LevelUpApiError. Stop early with
 * `break`; store `nextPageUrl` of the last page to resume later (200: more came since, 204: nothing yet).
 */
export async function* pages<P extends PagedPath>(client: LevelUpClient, path: P, ...[init]: PageInitArgument<P>): AsyncGenerator<PageItem<P>[]> {
  // openapi-fetch's generic GET cannot be called with a path the compiler does not know; its types were checked above.
  const get = client.GET as unknown as (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let next: string | undefined;
  let origin: string | undefined;
  do {
    const { data, error, response } = await get(path, next === undefined ? init : { ...init, middleware: [toUrl(next)] });
    if (response.status === 204) return;
    if (!response.ok) throw new LevelUpApiError(response.status, error as ApiErrors | undefined, response.headers.get('X-Request-Id') ?? undefined);
    // The first page came from the client's base URL; every Link followed must stay on its origin.
    origin ??= response.url ? new URL(response.url).origin : undefined;
    yield (data ?? []) as PageItem<P>[];
    const link = nextPageUrl(response);
    next = link === undefined ? undefined : new URL(link, response.url || origin).href;
    if (next !== undefined && origin !== undefined && new URL(next).origin !== origin) throw new Error(`refusing to follow a Link to another origin: ${next}`);
  } while (next !== undefined);
}

/** Every item of a paged list (all pages): for lists that fit in memory; otherwise iterate `pages`. */
export async function allItems<P extends PagedPath>(client: LevelUpClient, path: P, ...init: PageInitArgument<P>): Promise<PageItem<P>[]> {
  const items: PageItem<P>[] = [];
  for await (const page of pages(client, path, ...init)) items.push(...page);
  return items;
}

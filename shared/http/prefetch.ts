/**
 * A route's prefetch (HandlerSpec.prefetch): a read keyed only by the request as it came (never by the token:
 * it is not known yet), sent together with the token's read so that both cost one wait; handed to the domain as
 * `request.prefetched`, which awaits it where it would have made the read. Without a token to read it is sent
 * once the inputs are valid. It is speculative: the raw request may name keys the validated inputs do not (a
 * body that fails validation, a value the schema changes), so the domain takes from it only the items of the
 * keys it wants (`itemsOf`, shared/db/reads.ts) and reads the others itself. Undefined when the request names
 * nothing to read. Nothing of it may reach the answer before the token is admitted: a refused token or an
 * invalid input answers its 401 or 4xx without waiting for it, and the domain makes the route's checks on the
 * items itself (docs/security.md, "Prefetched reads").
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** A request's inputs as they came, before validation: what a prefetch keys its read by. */
export interface RawRequest {
  body: unknown;
  query: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, string | undefined>>;
}

export type Prefetch<T> = (request: RawRequest) => Promise<T> | undefined;

/** A positive integer id as a raw request may carry it (a number, or the digits of a path segment), else undefined. */
export function rawId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** A prefetch of what a raw id names: `read(id)`, or none when the value is no id (`rawId`). */
export function readByRawId<T>(value: unknown, read: (id: number) => Promise<T>): Promise<T> | undefined {
  const id = rawId(value);
  return id === undefined ? undefined : read(id);
}

/** The object a raw body holds under `name` (`{"order": {...}}`), else undefined. */
export function rawObject(body: unknown, name: string): Record<string, unknown> | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** A string of at most `max` characters as a raw request may carry it, else undefined. */
export function rawString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** For a promise whose rejection is read later (awaited after other work): marks it handled now. */
function ignore(): void {}

/** A route's prefetch, started: its promise marked handled (a failure, thrown or rejected, surfaces only where it is awaited). */
export function startPrefetch<T>(prefetch: Prefetch<T>, event: APIGatewayProxyEventV2): Promise<T> | undefined {
  let reading: Promise<T> | undefined;
  try {
    reading = prefetch({ body: (event as { body?: unknown }).body, query: event.queryStringParameters ?? {}, params: event.pathParameters ?? {} });
  } catch (error) {
    reading = Promise.reject(error);
  }
  reading?.catch(ignore);
  return reading;
}

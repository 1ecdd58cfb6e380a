/**
 * A request's inputs: the body read (size limit, then JSON), then body, query and path validated against the
 * route's schemas (`parseRequestInputs`), each failure the contract's error array.
 */
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type * as z from '#shared/schemas/zod.ts';
import { ApiError, errorDetail, notFound } from '#shared/errors.ts';
import { checkJsonBounds, parseOrThrow } from '#shared/http/validation.ts';

/** Largest request body accepted; larger ones get 413 before any parsing. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The schemas of a route's inputs (part of its HandlerSpec). */
export interface InputSchemas<TBody extends z.ZodMiniType, TQuery extends z.ZodMiniType, TParams extends z.ZodMiniType> {
  body?: TBody;
  /** Error object name for body validation failures whose path has no wrapper (defaults to `request`). */
  bodyObject?: string;
  query?: TQuery;
  params?: TParams;
  /**
   * The 404 of a route whose not-found answer carries an error array (the contract names one, e.g.
   * credit card deletion): a path parameter that fails its schema gets the same error, and the OpenAPI
   * document shows that body. Without it every 404 of the route has an empty body, as the contract
   * shows for most not-found cases.
   */
  notFound?: () => ApiError;
}

type MiddyRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

/**
 * The body's size limit, then JSON: real clients send `{}` or nothing on GET and DELETE, so only a
 * non-empty body is parsed as JSON (by @middy/http-json-body-parser).
 */
export function requestBodyParser(): (request: MiddyRequest) => unknown {
  const parser = httpJsonBodyParser();
  return (request) => {
    const event = request.event;
    // No body (every GET): nothing to measure, decode or parse.
    if (event.body === undefined) return undefined;
    const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(413, [errorDetail('request', 'body', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, 'too_large')]);
    }
    const text = event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    if (text.trim() === '') {
      (event as { body?: unknown }).body = undefined;
      return undefined;
    }
    const parsed: unknown = parser.before?.(request);
    return parsed;
  };
}

/** An event's inputs as the pipeline hands them over: the body already parsed from JSON. */
export type RequestInputsEvent = Pick<APIGatewayProxyEventV2, 'queryStringParameters' | 'pathParameters'> & { body?: unknown };

/**
 * The request's body, query and path, validated in this order: the first that fails is the answer. The body's
 * depth and size in values come first, whether or not the route reads a body (an Idempotency-Key hashes it).
 */
export function parseRequestInputs(
  spec: InputSchemas<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>,
  event: RequestInputsEvent,
): { body: unknown; query: unknown; params: unknown } {
  const body = event.body;
  checkJsonBounds(body);
  return {
    body: spec.body ? parseOrThrow(spec.body, body, spec.bodyObject ?? 'request') : undefined,
    query: spec.query ? parseQuery(spec.query, event.queryStringParameters) : undefined,
    params: spec.params ? parsePathParameters(spec.params, event.pathParameters ?? {}, spec.notFound) : undefined,
  };
}

/**
 * A path that names no possible resource (`/v15/orders/abc` where an id is numeric) is the route's
 * 404: its own error when it declares one, otherwise an empty body.
 */
function parsePathParameters<T extends z.ZodMiniType>(
  schema: T,
  parameters: Record<string, string | undefined>,
  routeNotFound: (() => ApiError) | undefined,
): z.output<T> {
  const result = schema.safeParse(parameters);
  if (!result.success) throw routeNotFound?.() ?? notFound();
  return result.data;
}

/**
 * What each query schema makes of a request without a query string, once per process: most requests send
 * none, and a schema's answer to `{}` is always the same (the schemas are pure). Kept only when every value
 * of it is a primitive (or absent), so each request gets its own copy and nothing of one request can leak
 * into another; a schema that refuses `{}` is asked again each time and answers its error.
 */
const emptyQueryParses = new WeakMap<z.ZodMiniType, Record<string, unknown>>();

function parseQuery(schema: z.ZodMiniType, parameters: Record<string, string | undefined> | undefined): unknown {
  for (const _name in parameters) return parseOrThrow(schema, parameters, 'request');
  let parsed = emptyQueryParses.get(schema);
  if (parsed === undefined) {
    const fresh: unknown = parseOrThrow(schema, {}, 'request');
    if (!isFlatRecord(fresh)) return fresh;
    emptyQueryParses.set(schema, fresh);
    parsed = fresh;
  }
  return { ...parsed };
}

/** A plain object whose values are all primitives or undefined: a shallow copy of it is a full copy. */
function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    if (typeof field === 'object' ? field !== null : typeof field === 'function') return false;
  }
  return true;
}

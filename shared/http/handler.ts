import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '#shared/schemas/zod.ts';
import { ApiError, errorDetail, notFound, serviceUnavailable, unauthorized } from '#shared/errors.ts';
import { addSecurityHeaders } from '#shared/http/headers.ts';
import { parseAuthorization } from '#shared/auth/header.ts';
import { resolveCredentials, type AppPrincipal, type Credentials, type MerchantPrincipal, type UserPrincipal } from '#shared/auth/tokens.ts';
import { findRoute, type Permission, type Route } from '#shared/routes.ts';
import { checkJsonBounds, parseOrThrow } from '#shared/http/validation.ts';
import { clientAddress } from '#shared/http/client-address.ts';
import { log } from '#shared/log.ts';
import { endInvocation } from '#shared/invocation-end.ts';
import { withHandlerCpuHeader, withStatsHeaders } from '#shared/http/bench-headers.ts';
import { withDeprecationHeaders } from '#shared/http/deprecation.ts';
import { withinRequest } from '#shared/db/request-deadline.ts';

/** Largest request body accepted; larger ones get 413 before any parsing. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as-is instead of JSON (HTML, scripts); the headers must carry its Content-Type. */
  rawBody?: string;
  /** Bytes (an image), sent base64-encoded to API Gateway; the headers must carry its Content-Type. */
  binaryBody?: Buffer;
}

export function ok(body: unknown, headers?: Record<string, string>): ApiResponse {
  return { status: 200, body, headers };
}

export function noContent(headers?: Record<string, string>): ApiResponse {
  return { status: 204, headers };
}

export interface ApiRequest<TBody, TQuery, TParams, TPrefetched = undefined> {
  body: TBody;
  query: TQuery;
  params: TParams;
  /**
   * The route's prefetch (HandlerSpec.prefetch): undefined when the route declares none or the request named
   * nothing to read. Already marked handled: a failed prefetch rejects only where it is awaited (the domain
   * then makes its read itself).
   */
  prefetched?: Promise<TPrefetched>;
  /** Resolved credentials, already checked against the route's credential kind and permissions. */
  credentials: Credentials;
  headers: Record<string, string | undefined>;
  requestId: string;
  /** Absolute base URL (scheme, host, stage) for Link and *_url fields: clients follow them as given. */
  baseUrl: string;
  rawPath: string;
  route: Route;
  event: APIGatewayProxyEventV2;
  /**
   * The caller's address, which per-client limits key on: the viewer's when the request provably came
   * through our CloudFront distribution, else API Gateway's sourceIp (shared/http/client-address.ts).
   */
  sourceIp: string;
}

/** The user principal of a request whose route requires one. */
export function requireUser(request: { credentials: Credentials }): UserPrincipal {
  if (!request.credentials.user) throw unauthorized();
  return request.credentials.user;
}

export function requireMerchant(request: { credentials: Credentials }): MerchantPrincipal {
  if (!request.credentials.merchant) throw unauthorized();
  return request.credentials.merchant;
}

/**
 * For operations the SDKs allow with any one of several permissions (Android: `create_orders` or
 * `read_qr_code` for interstitials and feedback); the route table lists permissions that are all required.
 */
export function requireAnyPermission(principal: { permissions: readonly string[] }, permissions: readonly Permission[]): void {
  if (permissions.some((permission) => principal.permissions.includes(permission))) return;
  throw new ApiError(401, [
    errorDetail('access_token', 'permissions', `The access token lacks the ${permissions.join(' or the ')} permission.`, 'missing_permission'),
  ]);
}

export function requireApp(request: { credentials: Credentials }): AppPrincipal {
  if (!request.credentials.app) throw unauthorized();
  return request.credentials.app;
}

interface HandlerSpec<TBody extends z.ZodMiniType, TQuery extends z.ZodMiniType, TParams extends z.ZodMiniType, TPrefetched = undefined> {
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
  /** One line for the API docs; the route's method and path are shown anyway. */
  summary?: string;
  /** Still served for the clients that call it, but replaced: the OpenAPI document marks the operation `deprecated`. */
  deprecated?: boolean;
  description?: string;
  /** A paged list (answered by `pageAnswer`, shared/http/paging.ts): the OpenAPI document shows the `Link` header of its 200. */
  paged?: boolean;
  /**
   * A read keyed only by the request as it came (never by the token: it is not known yet), sent together with
   * the token's read so that both cost one wait; handed to the domain as `request.prefetched`, which awaits it
   * where it would have made the read. Without a token to read it is sent once the inputs are valid. It is
   * speculative: the raw request may name keys the validated inputs do not (a body that fails validation, a
   * value the schema changes), so the domain takes from it only the items of the keys it wants (`itemsOf`,
   * shared/db/reads.ts) and reads the others itself. Undefined when the request names nothing to read. Nothing
   * of it may reach the answer before the token is admitted: a refused token or an invalid input answers its
   * 401 or 4xx without waiting for it, and the domain makes the route's checks on the items itself
   * (docs/security.md, "Prefetched reads").
   */
  prefetch?: (request: RawRequest) => Promise<TPrefetched> | undefined;
}

/** A request's inputs as they came, before validation: what a prefetch keys its read by. */
export interface RawRequest {
  body: unknown;
  query: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, string | undefined>>;
}

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

/** A handler's spec as the OpenAPI generator reads it (attached to the handler as `apiSpec`). */
export interface ApiSpec extends Omit<HandlerSpec<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>, 'prefetch'> {
  handlerName: string;
  route: Route;
}

type Output<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

export function baseUrlOf(event: APIGatewayProxyEventV2): string {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const headers = event.headers ?? {};
  // Clients can send X-Forwarded-Proto and Host themselves: a link must never point at `gopher://`
  // or `://`, so only http or https is taken, and the host API Gateway resolved wins over the header.
  const forwarded = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const proto = forwarded === 'http' || forwarded === 'https' ? forwarded : 'https';
  const host = event.requestContext.domainName || headers.host;
  const stage = event.requestContext.stage && event.requestContext.stage !== '$default' ? `/${event.requestContext.stage}` : '';
  return `${proto}://${host}${stage}`;
}

/**
 * The request's credentials for its route: at once when no token has to be read (a route without
 * credentials, or a request without a token), else a promise of them while the token's read is in flight.
 * A header that refuses the request before any read throws here, as the promise of a refused token rejects:
 * every refusal is a 401, and the request's inputs are never looked at before it (serveRequest).
 */
function authorize(route: Route, header: string | undefined): Credentials | Promise<Credentials> {
  if (route.credential === 'none') return {};
  const presented = parseAuthorization(header);
  if (route.credential === 'app-optional') {
    // The body's api_key is the credential unless a valid app token is sent. iOS sends whatever token it
    // holds on every request, so a user token (or a stale one) here is ignored, not refused.
    if (!presented) return {};
    return resolveCredentials(presented).then((credentials) => (credentials?.app ? { app: credentials.app } : {}));
  }
  if (!presented) {
    if (route.credential === 'user-optional' && !header) return {};
    throw unauthorized(header ? 'Authorization header is malformed.' : 'An access token is required.');
  }
  return resolveCredentials(presented).then((credentials) => admit(route, credentials));
}

/** The route's check of the credentials a presented token resolved to: its kind, then its permissions. */
function admit(route: Route, credentials: Credentials | undefined): Credentials {
  if (!credentials) throw unauthorized('The access token is invalid.');
  const principal =
    route.credential === 'merchant'
      ? credentials.merchant
      : route.credential === 'app'
        ? credentials.app
        : route.credential === 'any'
          ? (credentials.user ?? credentials.merchant ?? credentials.app)
          : route.credential === 'merchant-or-app'
            ? (credentials.merchant ?? credentials.app)
            : credentials.user;
  if (!principal) {
    if (route.credential === 'user-optional' && !credentials.merchant && !credentials.app) return credentials;
    throw unauthorized(
      route.credential === 'merchant'
        ? 'A merchant token is required.'
        : route.credential === 'app'
          ? 'An app token is required.'
          : route.credential === 'merchant-or-app'
            ? 'A merchant token or an app token is required.'
            : 'A user token is required.',
    );
  }
  if (route.credential === 'user-unlimited' && !(principal.kind === 'user' && principal.unlimited)) {
    throw unauthorized('This operation needs a token granted by username and password.', 'user', 'base');
  }
  const missing = (route.permissions ?? []).filter((permission) => !principal.permissions.includes(permission));
  if (missing.length > 0) {
    throw new ApiError(
      401,
      missing.map((permission) => errorDetail('access_token', 'permissions', `The access token lacks the ${permission} permission.`, 'missing_permission')),
    );
  }
  return credentials;
}

/** For a promise whose rejection is read later (awaited after other work): marks it handled now. */
function ignore(): void {}

/** A route's prefetch, started: its promise marked handled (a failure, thrown or rejected, surfaces only where it is awaited). */
function startPrefetch<T>(prefetch: (request: RawRequest) => Promise<T> | undefined, event: APIGatewayProxyEventV2): Promise<T> | undefined {
  let reading: Promise<T> | undefined;
  try {
    reading = prefetch({ body: (event as { body?: unknown }).body, query: event.queryStringParameters ?? {}, params: event.pathParameters ?? {} });
  } catch (error) {
    reading = Promise.reject(error);
  }
  reading?.catch(ignore);
  return reading;
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

function lowerCaseHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
  const lowered: Record<string, string | undefined> = {};
  for (const name in headers) lowered[name.toLowerCase()] = headers[name];
  return lowered;
}

/**
 * The answer's headers, in this order: Content-Type for a JSON body, the security headers, X-Request-Id,
 * then the handler's own (which replace any of those they name, in place). Built into one object: this
 * runs on every request.
 */
function respond(requestId: string, response: ApiResponse): APIGatewayProxyStructuredResultV2 {
  const json = response.rawBody === undefined && response.binaryBody === undefined && response.body !== undefined && response.status !== 204;
  const headers: Record<string, string> = json ? { 'Content-Type': 'application/json; charset=utf-8' } : {};
  addSecurityHeaders(headers, response.status, response.headers, 'X-Request-Id', requestId);
  if (response.rawBody !== undefined) return { statusCode: response.status, headers, body: response.rawBody };
  if (response.binaryBody !== undefined) return { statusCode: response.status, headers, body: response.binaryBody.toString('base64'), isBase64Encoded: true };
  if (!json) return { statusCode: response.status, headers, body: '' };
  return { statusCode: response.status, headers, body: JSON.stringify(response.body) };
}

/** After a timeout answer: long enough for the timed-out request's own work (and its key's lease) to settle. */
const TIMEOUT_RETRY_AFTER_SECONDS = 2;

/**
 * What middy answers just before the Lambda's own timeout. The domain call may still be running and its write
 * may yet commit: a 503 the client retries (with the same Idempotency-Key on a money route it gets the outcome,
 * 409 while in flight), never a bare 500 that reads as "nothing happened". Only middy's own deadline: a
 * DynamoDB client timeout inside the handler stays what it was.
 */
function lambdaTimeout(): never {
  throw serviceUnavailable(
    'request',
    'The request took too long to finish. It may still complete: retry it, with the same Idempotency-Key where it has one, to learn its outcome.',
    'timeout',
    TIMEOUT_RETRY_AFTER_SECONDS,
  );
}

function errorResponse(requestId: string, error: unknown): { response: APIGatewayProxyStructuredResultV2; logged: Record<string, unknown> } {
  if (error instanceof ApiError) {
    return { response: respond(requestId, { status: error.status, body: error.body(), headers: error.headers }), logged: { error: error.message } };
  }
  const middyError = error as { statusCode?: number; message?: string; expose?: boolean } | null;
  if (middyError?.statusCode === 415) {
    const apiError = new ApiError(415, [
      errorDetail('request', 'content_type', 'Request bodies must be JSON (Content-Type: application/json).', 'unsupported_media_type'),
    ]);
    return { response: respond(requestId, { status: 415, body: apiError.body() }), logged: { error: apiError.message } };
  }
  if (middyError?.statusCode === 422 || middyError?.statusCode === 400) {
    const apiError = new ApiError(400, [errorDetail('request', 'body', 'The request body is not valid JSON.', 'malformed_json')]);
    return { response: respond(requestId, { status: 400, body: apiError.body() }), logged: { error: apiError.message } };
  }
  const apiError = new ApiError(500, [errorDetail('request', 'base', 'Something went wrong on our side. The request id identifies it.', 'internal_error')]);
  return {
    response: respond(requestId, { status: 500, body: apiError.body() }),
    logged: { error: (error as Error)?.message, stack: (error as Error)?.stack },
  };
}

type MiddyRequest = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

/**
 * The body's size limit, then JSON: real clients send `{}` or nothing on GET and DELETE, so only a
 * non-empty body is parsed as JSON (by @middy/http-json-body-parser).
 */
function requestBodyParser(): (request: MiddyRequest) => unknown {
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
    return parser.before?.(request);
  };
}

/** An event's inputs as the pipeline hands them over: the body already parsed from JSON. */
export type RequestInputsEvent = Pick<APIGatewayProxyEventV2, 'queryStringParameters' | 'pathParameters'> & { body?: unknown };

/**
 * The request's body, query and path, validated in this order: the first that fails is the answer. The body's
 * depth and size in values come first, whether or not the route reads a body (an Idempotency-Key hashes it).
 */
export function parseRequestInputs(
  spec: Pick<HandlerSpec<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>, 'body' | 'bodyObject' | 'query' | 'params' | 'notFound'>,
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
 * Builds the Lambda handler of one route: request id and structured log line, size limit,
 * JSON body, authorization from the route table, zod validation, then the domain call.
 * Every failure becomes the contract's error array; anything unexpected a logged 500 with no details.
 */
export function apiHandler<
  TBody extends z.ZodMiniType = z.ZodMiniType<undefined>,
  TQuery extends z.ZodMiniType = z.ZodMiniType<undefined>,
  TParams extends z.ZodMiniType = z.ZodMiniType<undefined>,
  TPrefetched = undefined,
>(
  handlerName: string,
  spec: HandlerSpec<TBody, TQuery, TParams, TPrefetched>,
  serve: (request: ApiRequest<Output<TBody>, Output<TQuery>, Output<TParams>, TPrefetched>) => Promise<ApiResponse>,
) {
  const route = findRoute(handlerName);
  // middy aborts `signal` when it answers 503 timeout: the domain's transactions check it (shared/db/request-deadline.ts).
  const core = (event: APIGatewayProxyEventV2, context: Context, options?: { signal: AbortSignal }): Promise<APIGatewayProxyStructuredResultV2> =>
    withinRequest(options?.signal, () => serveRequest(event, context));
  type Inputs = { body: Output<TBody>; query: Output<TQuery>; params: Output<TParams> };
  const serveRequest = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = event.requestContext?.requestId ?? context.awsRequestId;
    const headers = lowerCaseHeaders(event.headers);
    // Authorize, then validate: a refused token is its 401 whatever the inputs. The prefetch leaves beside the
    // token's read (one wait for both) and a refusal does not wait for it; with no read in flight it waits for valid inputs.
    const authorized = authorize(route, headers.authorization);
    const reading = authorized instanceof Promise;
    let prefetched = reading && spec.prefetch ? startPrefetch(spec.prefetch, event) : undefined;
    const credentials = await authorized;
    const inputs = parseRequestInputs(spec, event) as Inputs;
    if (!reading && spec.prefetch) prefetched = startPrefetch(spec.prefetch, event);
    // baseUrl and sourceIp are worked out when a handler first reads them (most never do), from the same event and environment.
    let baseUrl: string | undefined;
    let sourceIp: string | undefined;
    const request: ApiRequest<Output<TBody>, Output<TQuery>, Output<TParams>, TPrefetched> = {
      body: inputs.body,
      query: inputs.query,
      params: inputs.params,
      prefetched,
      credentials,
      headers,
      requestId,
      get baseUrl() {
        return (baseUrl ??= baseUrlOf(event));
      },
      rawPath: event.rawPath,
      route,
      event,
      get sourceIp() {
        return (sourceIp ??= clientAddress(event, headers, process.env.EDGE_ORIGIN_SECRET));
      },
    };
    return respond(requestId, await serve(request));
  };

  const routeName = `${route.method} ${route.path}`;
  const parseBody = requestBodyParser();
  // One before middleware (clock, size limit, JSON body) rather than one each: the same steps in the same order, fewer hops per request.
  const middyHandler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>({ timeoutEarlyResponse: lambdaTimeout })
    .use({
      before: (request) => {
        (request.internal as Record<string, unknown>).startedAt = performance.now();
        return parseBody(request);
      },
      after: (request) => {
        logRequest(request.event, request.context, routeName, request.response?.statusCode ?? 0, request.internal as Record<string, unknown>);
        endInvocation();
      },
      onError: (request) => {
        const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
        const { response, logged } = errorResponse(requestId, request.error);
        request.response = response;
        logRequest(request.event, request.context, routeName, response.statusCode ?? 500, request.internal as Record<string, unknown>, logged);
        endInvocation();
      },
    })
    // Bench mode (DYNAMODB_STATS=1), tested inline: the bundling defines it away, so esbuild drops the bench's modules.
    .handler(process.env.DYNAMODB_STATS ? withStatsHeaders(core) : core);
  const apiSpec: ApiSpec = { ...spec, handlerName, route };
  // A deprecated route says so on every answer, errors too (shared/http/deprecation.ts, docs/versioning.md).
  const served = spec.deprecated ? withDeprecationHeaders(middyHandler) : middyHandler;
  return Object.assign(process.env.DYNAMODB_STATS ? withHandlerCpuHeader(served) : served, { apiSpec });
}

/** The invocation's X-Ray trace id: the runtime's invoke store when it has one (concurrent invocations), else the env variable Lambda sets. */
function traceRoot(): string | undefined {
  const runtime = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda;
  const header = runtime?.InvokeStore?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID ?? '';
  if (header === '') return undefined;
  return /Root=([^;]+)/.exec(header)?.[1] ?? (header.includes('=') || header === '' ? undefined : header);
}

function logRequest(
  event: APIGatewayProxyEventV2,
  context: Context,
  routeName: string,
  status: number,
  internal: Record<string, unknown>,
  logged?: Record<string, unknown>,
): void {
  const startedAt = internal.startedAt;
  const fields: Record<string, unknown> = {
    request_id: event.requestContext?.requestId ?? context.awsRequestId,
    route: routeName,
    method: event.requestContext?.http?.method,
    path: event.rawPath,
    status,
    duration_ms: typeof startedAt === 'number' ? Math.round((performance.now() - startedAt) * 100) / 100 : undefined,
    // Active tracing gives every invocation a trace: the log line leads to it in X-Ray.
    trace_id: traceRoot(),
  };
  // Anything else a middleware left in middy's per-request state, then the error's details.
  for (const name in internal) if (name !== 'startedAt') fields[name] = internal[name];
  if (logged) for (const name in logged) fields[name] = logged[name];
  log(status >= 500 ? 'error' : 'info', 'request', fields);
}

/**
 * The request pipeline, composed: `apiHandler` builds one route's Lambda handler from its row of the route table
 * and its spec. A handler imports what it needs from here: `apiHandler`, its answers (`ok`, `noContent`), the
 * guards of its principal (`requireUser`, ...) and, for a prefetch, the raw-request readers.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '#shared/schemas/zod.ts';
import { findRoute, type Route } from '#shared/routes.ts';
import { endInvocation } from '#shared/invocation-end.ts';
import { withHandlerCpuHeader, withStatsHeaders } from '#shared/http/bench-headers.ts';
import { withDeprecationHeaders } from '#shared/http/deprecation.ts';
import { withinRequest } from '#shared/db/request-deadline.ts';
import { authorize } from '#shared/http/admission.ts';
import { parseRequestInputs, requestBodyParser, type InputSchemas } from '#shared/http/inputs.ts';
import { startPrefetch, type Prefetch } from '#shared/http/prefetch.ts';
import { baseUrlOf, lowerCaseHeaders, type ApiRequest } from '#shared/http/request.ts';
import { clientAddress } from '#shared/http/client-address.ts';
import { errorResponse, lambdaTimeout, respond, type ApiResponse } from '#shared/http/response.ts';
import { logRequest } from '#shared/http/request-log.ts';

export { noContent, ok, type ApiResponse } from '#shared/http/response.ts';
export { requireAnyPermission, requireApp, requireMerchant, requireMerchantOfPath, requireStaff, requireUser } from '#shared/http/admission.ts';
export { rawId, rawObject, rawString, readByRawId, type RawRequest } from '#shared/http/prefetch.ts';
export type { ApiRequest } from '#shared/http/request.ts';

interface HandlerSpec<TBody extends z.ZodMiniType, TQuery extends z.ZodMiniType, TParams extends z.ZodMiniType, TPrefetched = undefined> extends InputSchemas<
  TBody,
  TQuery,
  TParams
> {
  /** One line for the API docs; the route's method and path are shown anyway. */
  summary?: string;
  /** Still served for the clients that call it, but replaced: the OpenAPI document marks the operation `deprecated`. */
  deprecated?: boolean;
  description?: string;
  /** A paged list (answered by `pageAnswer`, shared/http/paging.ts): the OpenAPI document shows the `Link` header of its 200. */
  paged?: boolean;
  /** A read keyed only by the request as it came, sent beside the token's read (shared/http/prefetch.ts). */
  prefetch?: Prefetch<TPrefetched>;
}

/** A handler's spec as the OpenAPI generator reads it (attached to the handler as `apiSpec`). */
export interface ApiSpec extends Omit<HandlerSpec<z.ZodMiniType, z.ZodMiniType, z.ZodMiniType>, 'prefetch'> {
  handlerName: string;
  route: Route;
}

/** What a request input's schema gives the handler once parsed (`undefined` where the route has none). */
export type Output<T> = T extends z.ZodMiniType ? z.output<T> : undefined;

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
    const authorized = authorize(route, headers.authorization, route.roles && event.pathParameters?.merchant_id);
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
        logRequest(request.event, request.context, routeName, request.response?.statusCode ?? 0, request.internal);
        endInvocation();
      },
      onError: (request) => {
        const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
        const { response, logged } = errorResponse(requestId, request.error);
        request.response = response;
        logRequest(request.event, request.context, routeName, response.statusCode ?? 500, request.internal, logged);
        endInvocation();
      },
    } satisfies middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>)
    // Bench mode (DYNAMODB_STATS=1), tested inline: the bundling defines it away, so esbuild drops the bench's modules.
    .handler(process.env.DYNAMODB_STATS ? withStatsHeaders(core) : core);
  const apiSpec: ApiSpec = { ...spec, handlerName, route };
  // A deprecated route says so on every answer, errors too (shared/http/deprecation.ts, docs/versioning.md).
  const served = spec.deprecated ? withDeprecationHeaders(middyHandler) : middyHandler;
  return Object.assign(process.env.DYNAMODB_STATS ? withHandlerCpuHeader(served) : served, { apiSpec });
}

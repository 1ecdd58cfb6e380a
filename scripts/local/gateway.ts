import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { FALLBACK_HANDLER, matchPath, pathParameterNames, routes, type Route } from '#shared/routes.ts';
import { API_THROTTLING, CLIENT_LIMITS, credentialKey } from '#shared/throttling.ts';
import { ClientLimiter, TokenBucket, type Admission, type ClientLimitSettings } from './throttle.ts';
import { SERVER_HEADER } from '#shared/http/headers.ts';
import { consoleAnswer } from './console-files.ts';
import { corsSettings, isPreflight, parseAllowedOrigins, preflightHeaders, responseCorsHeaders, type CorsSettings } from '#shared/http/cors.ts';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2 | string>;

const functionsDirectory = fileURLToPath(new URL('../../functions/', import.meta.url));
const loaded = new Map<string, Promise<LambdaHandler>>();
/** Handlers already imported: a warm request calls its handler without awaiting the import's promise again. */
const ready = new Map<string, LambdaHandler>();

/** Imports a route's own handler module, once, as Lambda would at cold start. */
export function loadHandler(name: string): Promise<LambdaHandler> {
  let handler = loaded.get(name);
  if (!handler) {
    handler = import(pathToFileURL(join(functionsDirectory, `${name}.ts`)).href).then((module: { handler?: LambdaHandler }) => {
      if (typeof module.handler !== 'function') throw new Error(`functions/${name}.ts does not export handler`);
      ready.set(name, module.handler);
      return module.handler;
    });
    loaded.set(name, handler);
  }
  return handler;
}

/**
 * The route table by method and segment count, in table order, each with its number of literal
 * segments: built once, so a request only tries the routes that could match its path.
 */
const candidatesByShape = new Map<string, { route: Route; literals: number }[]>();
for (const route of routes) {
  const segments = route.path.split('/');
  const shape = `${route.method} ${segments.length}`;
  const literals = segments.length - pathParameterNames(route.path).length;
  candidatesByShape.set(shape, [...(candidatesByShape.get(shape) ?? []), { route, literals }]);
}

/** Like API Gateway, a literal path segment wins over a `{param}` one wherever both would match. */
export function findMatchingRoute(method: string, path: string): { route?: Route; params: Record<string, string> } {
  let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
  for (const { route, literals } of candidatesByShape.get(`${method} ${path.split('/').length}`) ?? []) {
    if (best && literals <= best.literals) continue;
    const params = matchPath(route.path, path);
    if (params) best = { route, params, literals };
  }
  return best ? { route: best.route, params: best.params } : { params: {} };
}

/** HTTP API payload v2: multi-value query parameters and headers are joined with commas, as API Gateway does. */
export function toEvent(
  request: Pick<IncomingMessage, 'headers' | 'method' | 'httpVersion' | 'socket'>,
  body: Buffer,
  url: URL,
  route: Route | undefined,
  params: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] ??= 'http';
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const method = request.method ?? 'GET';
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  const now = new Date();
  const isText = body.length === 0 || /json|text|x-www-form-urlencoded/.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: headers.cookie?.split(';').map((cookie) => cookie.trim()),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: Object.keys(params).length > 0 ? params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: (headers.host ?? '127.0.0.1').split('.')[0] ?? 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length > 0 ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}

export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The gateway reads at most this much of a body; API Gateway's own payload limit is larger, the handlers' lower. */
const MAX_GATEWAY_BODY_BYTES = 1024 * 1024;

const EMPTY_BODY = Buffer.alloc(0);

function readBody(request: IncomingMessage): Promise<Buffer | undefined> | Buffer {
  // Most requests (every GET) carry no body: no listeners, no promise, no concat.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return EMPTY_BODY;
  }
  if (request.headers['content-length'] === '0') {
    request.resume();
    return EMPTY_BODY;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_GATEWAY_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_GATEWAY_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  // The edge (CloudFront's response headers policy) puts Server: LevelUp on every answer, its own 429s included.
  response.writeHead(status, { ...headers, ...SERVER_HEADER, 'Content-Length': String(Buffer.byteLength(body)) });
  response.end(body);
}

function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string, cors: Record<string, string>): void {
  if (typeof result === 'string') return send(response, 200, { 'Content-Type': 'application/json', ...cors }, result);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  // Like API Gateway with a CORS configuration: its own CORS headers replace any the function answered.
  Object.assign(headers, cors);
  const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  if (result.cookies?.length) response.setHeader('Set-Cookie', result.cookies);
  send(response, result.statusCode ?? 200, headers, body);
}

export interface GatewayOptions {
  port: number;
  host?: string;
}

/**
 * A handler the gateway serves outside the route table, by exact method and path: the bench's
 * baseline endpoint (bench/harness/baseline-handler.ts), which prices the HTTP hop. Never a deployed route.
 */
export interface ExtraRoute {
  method: string;
  path: string;
  name: string;
  handler: LambdaHandler;
}

export interface GatewayLimits {
  /** Served before the route table (bench only); absent on `npm start` and in tests. */
  extraRoutes?: ExtraRoute[];
  /** The stage's shared bucket (API Gateway's stage throttling); `false` turns every limit off (bench, soak). */
  throttling?: { rateLimit: number; burstLimit: number } | false;
  /** The per-client limits (AWS WAF in front of the deployed API); `false` turns them off. */
  clientLimits?: ClientLimitSettings | false;
  /** CORS (shared/http/cors.ts); default the origins in CORS_ALLOW_ORIGINS, none when unset (as a deployment without `corsAllowOrigins`). */
  cors?: CorsSettings;
}

/** The local stack's CORS: the same settings API Gateway's corsPreflight gets, from the CORS_ALLOW_ORIGINS list. */
export function localCorsSettings(): CorsSettings | undefined {
  return corsSettings(parseAllowedOrigins(process.env.CORS_ALLOW_ORIGINS));
}

/**
 * The local stand-in for CloudFront + WAF + API Gateway (HTTP API): applies the per-client limits,
 * then the stage's shared throttle, answers CORS preflights as API Gateway's corsPreflight does, routes each
 * request by the route table, turns it into a payload v2 event, invokes that route's own handler, and turns
 * the result back into HTTP (with the CORS headers API Gateway adds for an allowed origin).
 */
export function createGateway(options: GatewayLimits = {}): Server {
  const throttling = options.throttling ?? API_THROTTLING;
  const bucket = throttling ? new TokenBucket(throttling.rateLimit, throttling.burstLimit) : undefined;
  const clientLimits = throttling === false ? false : (options.clientLimits ?? CLIENT_LIMITS);
  const limiter = clientLimits ? new ClientLimiter(clientLimits) : undefined;
  const extraRoutes = new Map((options.extraRoutes ?? []).map((extra) => [`${extra.method} ${extra.path}`, extra]));
  const cors = 'cors' in options ? options.cors : localCorsSettings();
  // A caller is refused by its own buckets before it can take a token from the stage's shared one.
  const admit = (request: IncomingMessage): Admission | undefined => {
    const client = { credential: credentialKey(request.headers.authorization), address: request.socket.remoteAddress ?? 'unknown' };
    const own = limiter?.admit(client);
    return own && !own.allowed ? own : bucket?.take();
  };
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the body catches every error and answers it, so no rejection escapes
  const server = createServer(async (request, response) => {
    const corsHeaders = cors ? responseCorsHeaders(cors, request.headers.origin) : {};
    try {
      const admission = admit(request);
      if (admission && !admission.allowed) {
        request.resume();
        return send(
          response,
          429,
          { 'Content-Type': 'application/json', 'Retry-After': String(admission.retryAfterSeconds), ...corsHeaders },
          JSON.stringify([
            { error: { object: 'request', property: 'base', message: 'Too many requests; retry after the Retry-After interval.', code: 'throttled' } },
          ]),
        );
      }
      // API Gateway answers a preflight itself, whatever the path: no function runs.
      if (cors && isPreflight(request.method, request.headers)) {
        request.resume();
        return send(response, 204, preflightHeaders(cors, request.headers.origin), '');
      }
      const url = new URL(request.url ?? '/', `http://${request.headers.host ?? '127.0.0.1'}`);
      // The merchant console's files (CloudFront's /console/* behaviour: the bucket, not the API).
      const consoleFile = consoleAnswer(request.method ?? 'GET', url.pathname);
      if (consoleFile) {
        request.resume();
        return send(response, consoleFile.status, consoleFile.headers, request.method === 'HEAD' ? '' : consoleFile.body);
      }
      const pending = readBody(request);
      const body = pending instanceof Buffer ? pending : await pending;
      if (body === undefined) {
        return send(
          response,
          413,
          { 'Content-Type': 'application/json', ...corsHeaders },
          JSON.stringify([{ error: { object: 'request', property: 'body', message: 'Request body too large.', code: 'too_large' } }]),
        );
      }
      const extra = extraRoutes.get(`${request.method} ${url.pathname}`);
      if (extra) {
        const event = toEvent(request, body, url, undefined, {});
        return writeResult(response, await extra.handler(event, lambdaContext(extra.name, event.requestContext.requestId)), corsHeaders);
      }
      const { route, params } = findMatchingRoute(request.method ?? 'GET', url.pathname);
      const handlerName = route?.handler ?? FALLBACK_HANDLER;
      const event = toEvent(request, body, url, route, params);
      const handler = ready.get(handlerName) ?? (await loadHandler(handlerName));
      writeResult(response, await handler(event, lambdaContext(handlerName, event.requestContext.requestId)), corsHeaders);
    } catch (error) {
      // A handler that throws is what API Gateway answers with 500 "Internal Server Error".
      console.error(JSON.stringify({ level: 'error', message: 'handler failed', error: (error as Error).message, stack: (error as Error).stack }));
      if (!response.headersSent)
        send(response, 500, { 'Content-Type': 'application/json', ...corsHeaders }, JSON.stringify({ message: 'Internal Server Error' }));
    }
  });
  // Longer than a client's idle keep-alive (Node's agent drops a free socket after 5 s, as Node's server used to
  // close one): the client closes an idle connection first, so it never sends a request on a socket the gateway is
  // closing (a read ECONNRESET on the client, seen under a loaded suite). API Gateway keeps idle connections too.
  server.keepAliveTimeout = 60_000;
  return server;
}

export async function listen(server: Server, options: GatewayOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : options.port);
    });
  });
}

import { randomUUID } from 'node:crypto';
import type { Route } from '#shared/routes.ts';

/** A route's request as API Gateway's payload v2 (HTTP API) hands it to the function. */
export interface RouteEvent {
  headers: Record<string, string>;
  [field: string]: unknown;
}

/**
 * The request API Gateway would send a route's function (payload v2): its path with each `{name}` filled by
 * `pathValue`, a JSON body placeholder on writes, and `authorization` when given. No route: the fallback's
 * `$default` on an unknown path. Shared by the cold-start bench and the bundle smoke test, which invoke the
 * bundles directly, without a gateway.
 */
export function routeEvent(
  route: Route | undefined,
  { host, userAgent, pathValue, authorization }: { host: string; userAgent: string; pathValue: (name: string) => string; authorization?: string },
): RouteEvent {
  const method = route?.method ?? 'GET';
  const params = Object.fromEntries([...(route?.path ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => [match[1]!, pathValue(match[1]!)]));
  const path = route ? route.path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name]!) : '/v15/no-such-route';
  const headers: Record<string, string> = { host, accept: 'application/json', 'x-forwarded-proto': 'https' };
  if (authorization !== undefined) headers.authorization = authorization;
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  if (hasBody) headers['content-type'] = 'application/json';
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers,
    pathParameters: Object.keys(params).length > 0 ? params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split('.')[0],
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: hasBody ? '{}' : undefined,
    isBase64Encoded: false,
  };
}

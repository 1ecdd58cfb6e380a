import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { matchPath, routes } from '#shared/routes.ts';
import { log } from '#shared/log.ts';
import { securityHeaders } from '#shared/http/headers.ts';

/**
 * API Gateway's `$default` route: no route of the table matched the method and path.
 * A path served under other methods gets 405 with Allow; anything else 404, both in the error format.
 */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const requestId = event.requestContext?.requestId ?? 'unknown';
  const method = event.requestContext?.http?.method ?? 'GET';
  const allowed = routes.filter((route) => matchPath(route.path, event.rawPath) !== undefined).map((route) => route.method);
  const status = allowed.length > 0 ? 405 : 404;
  const error =
    status === 405
      ? { object: 'request', property: 'method', message: `${method} is not allowed here; use ${allowed.join(', ')}.`, code: 'method_not_allowed' }
      : { object: 'request', property: 'path', message: `No route matches ${method} ${event.rawPath}.`, code: 'not_found' };
  log('info', 'request', { request_id: requestId, route: '$default', method, path: event.rawPath, status });
  return {
    statusCode: status,
    headers: securityHeaders(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': requestId,
      ...(status === 405 ? { Allow: [...new Set(allowed)].join(', ') } : {}),
    }),
    body: JSON.stringify([{ error }]),
  };
}

/** The one structured JSON log line of each request (shared/log.ts), leading to its X-Ray trace. */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { log } from '#shared/log.ts';

/** The invocation's X-Ray trace id: the runtime's invoke store when it has one (concurrent invocations), else the env variable Lambda sets. */
function traceRoot(): string | undefined {
  const runtime = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda;
  const header = runtime?.InvokeStore?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID ?? '';
  if (header === '') return undefined;
  return /Root=([^;]+)/.exec(header)?.[1] ?? (header.includes('=') || header === '' ? undefined : header);
}

export function logRequest(
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

/**
 * Response headers the benchmark reads (DYNAMODB_STATS=1 only: shared/http/handler.ts wraps every handler in
 * them then, bench/harness/server.ts its baseline and twin endpoints, so both sides of a ratio pay the same).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { withDbStats } from '#shared/db/stats.ts';

/**
 * Benchmark mode: the CPU the whole invocation used (middy, validation, the domain, the SDK's
 * serialisation, the log line), in milliseconds, as X-Handler-CPU-Ms. process.cpuUsage counts the
 * whole process, so the figure is the handler's own only while it is the one request in flight
 * (the bench reports it at concurrency 1).
 */
export function withHandlerCpuHeader(handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>) {
  return async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const before = process.cpuUsage();
    const response = await handler(event, context);
    const used = process.cpuUsage(before);
    // respond() built these headers for this answer alone: added in place, at the end, as a copy would.
    (response.headers ??= {})['X-Handler-CPU-Ms'] = ((used.user + used.system) / 1000).toFixed(3);
    return response;
  };
}

/** Benchmark mode: the request's DynamoDB round trips and consumed capacity, as X-DynamoDB-* headers. */
export function withStatsHeaders(
  core: (event: APIGatewayProxyEventV2, context: Context, options?: { signal: AbortSignal }) => Promise<APIGatewayProxyStructuredResultV2>,
) {
  return async (event: APIGatewayProxyEventV2, context: Context, options?: { signal: AbortSignal }): Promise<APIGatewayProxyStructuredResultV2> => {
    const { result, stats } = await withDbStats(() => core(event, context, options).catch((error: unknown) => ({ error })));
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the handler's own error, whatever it is, with the stats attached
    if ('error' in result) throw Object.assign(result.error as object, { dbStats: stats });
    const headers = (result.headers ??= {});
    headers['X-DynamoDB-Round-Trips'] = String(stats.roundTrips);
    headers['X-DynamoDB-Capacity-Units'] = String(stats.capacityUnits);
    return result;
  };
}

/**
 * One bench request (bench/scenarios/scenarios.ts) handed straight to its handler as an API Gateway payload v2
 * event, without the gateway or a load generator in the process: what bench/harness/handler-cpu.ts and
 * bench/memory/memory.ts time. Answers the status, and the invocation's CPU (`process.cpuUsage`, every thread
 * of the process) and wall milliseconds.
 */
import type { HttpRequestSpec } from './measure.ts';

export interface InvocationSample {
  status: number;
  cpuMs: number;
  wallMs: number;
}

export async function invokeDirectly(spec: HttpRequestSpec): Promise<InvocationSample> {
  const { findMatchingRoute, loadHandler, toEvent, lambdaContext } = await import('../../scripts/local/gateway.ts');
  const url = new URL(spec.path, 'http://127.0.0.1');
  const { route, params } = findMatchingRoute(spec.method, url.pathname);
  if (!route) throw new Error(`no route for ${spec.method} ${url.pathname}`);
  const body = spec.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(spec.body));
  const headers = Object.fromEntries(
    Object.entries({
      host: '127.0.0.1',
      accept: 'application/json',
      ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...spec.headers,
    }).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const event = toEvent({ headers, method: spec.method, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as never, body, url, route, params);
  const handler = await loadHandler(route.handler);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await handler(event, lambdaContext(route.handler, event.requestContext.requestId));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { status: typeof result === 'string' ? 200 : (result.statusCode ?? 200), cpuMs: (used.user + used.system) / 1000, wallMs };
}

/**
 * Measuring: percentiles, a closed-loop runner for non-HTTP operations (the DynamoDB floor, the
 * order-ahead start -> poll flow), and autocannon for HTTP endpoints. Latencies are kept exactly
 * (milliseconds as floats) and summarised here, so HTTP and floor figures are computed the same way.
 */
import autocannon from 'autocannon';
import { parseReadShapes, type ReadShape, type ReadShapeTotals, type ShapedRead } from '../floors/read-shape.ts';

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Completed operations per second of wall time. */
  rps: number;
  durationSeconds: number;
}

export function summarize(latencies: number[], durationMs: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (quantile: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!);
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(mean),
    rps: round(sorted.length / (durationMs / 1000), 1),
    durationSeconds: round(durationMs / 1000, 2),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface RunLimit {
  /** Stop after this long (ms)... */
  durationMs?: number;
  /** ...or after this many operations, whichever comes first. */
  amount?: number;
  /**
   * ...but not before this many operations have started, however long they take: a floor measured for a
   * short time (quick mode) with slow operations (a group of parallel reads at c=16) keeps a usable p50.
   */
  minimumAmount?: number;
}

/**
 * `concurrency` workers each run `operation` back to back until the limit; every operation's
 * latency is recorded. An operation that throws is counted as an error, not as a latency.
 */
export async function closedLoop(
  concurrency: number,
  limit: RunLimit,
  operation: (worker: number, sequence: number) => Promise<void>,
): Promise<{ summary: LatencySummary; errors: number; firstError?: string }> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let started = 0;
  const startedAt = performance.now();
  const deadline = limit.durationMs === undefined ? Number.POSITIVE_INFINITY : startedAt + limit.durationMs;
  const maximum = limit.amount ?? Number.POSITIVE_INFINITY;
  const minimum = limit.minimumAmount ?? 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while ((performance.now() < deadline || started < minimum) && started < maximum) {
        const sequence = started++;
        const before = performance.now();
        try {
          await operation(worker, sequence);
          latencies.push(performance.now() - before);
        } catch (error) {
          errors += 1;
          firstError ??= (error as Error).message;
        }
      }
    }),
  );
  return { summary: summarize(latencies, performance.now() - startedAt), errors, firstError };
}

export interface HttpRequestSpec {
  method: string;
  /** Path and query, relative to the base URL. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface HttpLoadResult {
  summary: LatencySummary;
  statuses: Record<string, number>;
  /** Socket errors and timeouts. */
  errors: number;
  /** Mean DynamoDB round trips per request, from X-DynamoDB-Round-Trips. */
  roundTrips: number | null;
  roundTripsMax: number | null;
  /** Mean consumed capacity units per request, from X-DynamoDB-Capacity-Units. */
  capacityUnits: number | null;
  /** Mean read / write capacity units per request (X-Bench-Read-Units / X-Bench-Write-Units from bench/harness/server.ts). */
  readUnits: number | null;
  writeUnits: number | null;
  /**
   * Median CPU ms of the handler per request (X-Handler-CPU-Ms: process.cpuUsage around the invocation).
   * Only the handler's own at concurrency 1: with requests overlapping it counts the others' CPU too.
   */
  handlerCpuMs: number | null;
  /** The bench server's CPU ms per request, gateway included (X-Bench-Process-CPU-Ms, last - first over the requests between). */
  serverCpuMs: number | null;
  /** Median wall ms per request with a DynamoDB call in flight (X-Bench-DynamoDB-Ms). */
  dynamoMs: number | null;
  /** Mean items per TransactWriteItems call (X-Bench-Transact-Items over the calls), null without transactions. */
  itemsPerTransaction: number | null;
  /** Mean JSON bytes per TransactWriteItems call, over the requests that sized theirs (X-Bench-Transact-Bytes: the warm-up's), null without. */
  bytesPerTransaction: number | null;
  /**
   * The mean shape of the Query / BatchGetItem calls that returned two items or more (or one large item) (X-Bench-Read-Shapes),
   * by operation; absent when none did (and in results from before it existed).
   */
  readShapes?: Partial<Record<ShapedRead, ReadShape>>;
  /** Mean Step Functions StartExecution calls per request (X-Bench-Start-Executions); absent in results from before it existed. */
  startExecutions?: number;
  /** One StartExecution request a response reported (X-Bench-Start-Execution-Sample): what the StartExecution floor repeats. */
  startExecutionSample?: { stateMachineArn: string; name: string; input: string };
  /** Mean DynamoDB calls per request by operation (X-Bench-DynamoDB-Calls). */
  calls: Record<string, number>;
  /**
   * The distinct call recordings the responses reported (X-Bench-Recorded-Calls, bench/floors/twin.ts describeRecording:
   * the warm-up's requests of GET endpoints only); absent when none did.
   */
  recordedCalls?: string[];
  /** One response body with an unexpected status, to show what went wrong. */
  unexpectedSample?: string;
}

/** The most a timed run may take when its slow requests are still short of `minimumAmount` (autocannon then stops it hard). */
const TIMED_RUN_CAP_SECONDS = 600;

/**
 * A timed run (`durationMs`, optionally `minimumAmount`) that ends gracefully: once the time is up and at least the
 * minimum of responses came back, each connection sends nothing more and its request in flight is answered and counted.
 * autocannon's own `duration` drops the requests in flight instead: a request slower than the run (a CSV export at
 * c=16 takes seconds) then never counts, and the server keeps working on the dropped ones during the next
 * measurement. autocannon has no such ending, so each connection's request cap (`responseMax`, which its Client
 * checks before every request) is lowered to the requests it has sent.
 */
function gracefulEnd(limit: RunLimit, startedAt: number) {
  interface CannonClient {
    reqsMade: number;
    responseMax?: number;
  }
  const clients: CannonClient[] = [];
  const durationMs = limit.durationMs ?? 1000;
  const minimum = limit.minimumAmount ?? 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
  };
  let answers = 0;
  const timer = setTimeout(() => {
    if (answers >= minimum) end();
  }, durationMs);
  return {
    options: {
      duration: TIMED_RUN_CAP_SECONDS,
      // The run resolves at autocannon's next sample tick after its last connection is done: keep that wait short.
      sampleInt: 50,
      setupClient: (client: autocannon.Client) => {
        const counted = client as unknown as CannonClient;
        if (typeof counted.reqsMade !== 'number')
          throw new Error('autocannon: its Client no longer counts reqsMade; httpLoad cannot end a timed run gracefully');
        clients.push(counted);
      },
    },
    answered(count: number) {
      answers = count;
      if (answers >= minimum && performance.now() - startedAt >= durationMs) end();
    },
    settle() {
      ended = true;
      clearTimeout(timer);
    },
  };
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

/**
 * Runs autocannon against one endpoint: `next()` is asked for every request (so each may differ,
 * e.g. a fresh proposed order to complete). Latency, status and the DynamoDB stats headers are
 * read from every response.
 */
export async function httpLoad(options: {
  baseUrl: string;
  connections: number;
  limit: RunLimit;
  next: () => HttpRequestSpec;
  expectedStatuses: readonly number[];
  onResponse?: (status: number, body: string) => void;
}): Promise<HttpLoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const roundTrips: number[] = [];
  const capacity: number[] = [];
  const readUnits: number[] = [];
  const writeUnits: number[] = [];
  const handlerCpu: number[] = [];
  const dynamoMs: number[] = [];
  let transactItems = 0;
  let transactBytes = 0;
  let sizedTransactions = 0;
  const readShapeTotals: Partial<Record<ShapedRead, ReadShapeTotals & { requests: number }>> = {};
  let readShapeSamples = 0;
  let startExecutions = 0;
  let startSamples = 0;
  let startExecutionSample: HttpLoadResult['startExecutionSample'];
  const processCpu: number[] = [];
  const callTotals: Record<string, number> = {};
  let callSamples = 0;
  const recordedCalls = new Set<string>();
  let unexpectedSample: string | undefined;
  const build = (request: autocannon.Request): autocannon.Request => {
    const spec = options.next();
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    return { ...request, method: spec.method as autocannon.Request['method'], path: spec.path, headers, ...(body === undefined ? {} : { body }) };
  };
  const startedAt = performance.now();
  const ending = options.limit.amount === undefined ? gracefulEnd(options.limit, startedAt) : undefined;
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    ...(ending ? ending.options : { amount: options.limit.amount }),
    timeout: 30,
    requests: [
      {
        setupRequest: build,
        onResponse: (status: number, body: string, _context: unknown, headers?: Record<string, unknown>) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          const trips = headerValue(headers, 'x-dynamodb-round-trips');
          const units = headerValue(headers, 'x-dynamodb-capacity-units');
          if (trips !== undefined) roundTrips.push(Number(trips));
          if (units !== undefined) capacity.push(Number(units));
          const reads = headerValue(headers, 'x-bench-read-units');
          const writes = headerValue(headers, 'x-bench-write-units');
          if (reads !== undefined) readUnits.push(Number(reads));
          if (writes !== undefined) writeUnits.push(Number(writes));
          const inDynamo = headerValue(headers, 'x-bench-dynamodb-ms');
          if (inDynamo !== undefined) dynamoMs.push(Number(inDynamo));
          transactItems += Number(headerValue(headers, 'x-bench-transact-items') ?? 0);
          const sizedBytes = headerValue(headers, 'x-bench-transact-bytes');
          if (sizedBytes !== undefined) {
            transactBytes += Number(sizedBytes);
            sizedTransactions += 1;
          }
          const shapes = headerValue(headers, 'x-bench-read-shapes');
          if (shapes !== undefined) {
            readShapeSamples += 1;
            for (const [operation, totals] of Object.entries(parseReadShapes(shapes)) as [ShapedRead, ReadShapeTotals][]) {
              if (totals.calls === 0) continue;
              const sum = (readShapeTotals[operation] ??= { calls: 0, items: 0, bytes: 0, attributes: 0, parallel: 0, requests: 0 });
              sum.requests += 1;
              sum.parallel += totals.parallel;
              sum.calls += totals.calls;
              sum.items += totals.items;
              sum.bytes += totals.bytes;
              sum.attributes += totals.attributes;
            }
          }
          const starts = headerValue(headers, 'x-bench-start-executions');
          if (starts !== undefined) {
            startSamples += 1;
            startExecutions += Number(starts);
          }
          const startSample = headerValue(headers, 'x-bench-start-execution-sample');
          if (startSample !== undefined)
            startExecutionSample = JSON.parse(Buffer.from(startSample, 'base64url').toString('utf8')) as HttpLoadResult['startExecutionSample'];
          const cpu = headerValue(headers, 'x-handler-cpu-ms');
          if (cpu !== undefined) handlerCpu.push(Number(cpu));
          const serverCpu = headerValue(headers, 'x-bench-process-cpu-ms');
          if (serverCpu !== undefined) processCpu.push(Number(serverCpu));
          const recorded = headerValue(headers, 'x-bench-recorded-calls');
          if (recorded !== undefined) recordedCalls.add(recorded);
          const calls = headerValue(headers, 'x-bench-dynamodb-calls');
          if (calls !== undefined) {
            callSamples += 1;
            for (const pair of calls.split(',').filter(Boolean)) {
              const [operation, count] = pair.split('=');
              callTotals[operation!] = (callTotals[operation!] ?? 0) + Number(count);
            }
          }
          if (!options.expectedStatuses.includes(status)) unexpectedSample ??= `${status} ${String(body).slice(0, 300)}`;
          options.onResponse?.(status, String(body));
        },
      },
    ],
    // Without a callback autocannon returns its tracker (an EventEmitter) that is also thenable.
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  // A failed request counts toward the minimum too: a run whose requests all fail ends on time (its caller reports the errors).
  let failed = 0;
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    ending?.answered(latencies.length + failed);
  });
  instance.on('reqError', () => ending?.answered(latencies.length + ++failed));
  const result = await instance.then((finished) => {
    ending?.settle();
    return finished;
  });
  const elapsed = performance.now() - startedAt;
  const mean = (values: number[]) => (values.length === 0 ? null : round(values.reduce((sum, value) => sum + value, 0) / values.length, 3));
  return {
    summary: summarize(latencies, elapsed),
    statuses,
    errors: result.errors + result.timeouts,
    roundTrips: mean(roundTrips),
    roundTripsMax: roundTrips.length === 0 ? null : Math.max(...roundTrips),
    capacityUnits: mean(capacity),
    readUnits: mean(readUnits),
    writeUnits: mean(writeUnits),
    dynamoMs: dynamoMs.length === 0 ? null : round(median(dynamoMs), 3),
    itemsPerTransaction: (callTotals.TransactWriteItems ?? 0) === 0 ? null : round(transactItems / callTotals.TransactWriteItems!, 2),
    bytesPerTransaction: sizedTransactions === 0 ? null : round(transactBytes / sizedTransactions, 0),
    handlerCpuMs: handlerCpu.length === 0 ? null : round(median(handlerCpu), 3),
    serverCpuMs: processCpu.length < 2 ? null : round((Math.max(...processCpu) - Math.min(...processCpu)) / (processCpu.length - 1), 3),
    ...(Object.keys(readShapeTotals).length === 0
      ? {}
      : {
          readShapes: Object.fromEntries(
            Object.entries(readShapeTotals).map(([operation, totals]) => [
              operation,
              {
                callsPerRequest: round(totals.calls / readShapeSamples, 3),
                itemsPerCall: round(totals.items / totals.calls, 2),
                bytesPerItem: round(totals.bytes / totals.items, 0),
                attributesPerItem: round(totals.attributes / totals.items, 1),
                parallelCalls: round(totals.parallel / totals.requests, 2),
              },
            ]),
          ),
        }),
    ...(startSamples === 0 ? {} : { startExecutions: round(startExecutions / startSamples, 3) }),
    ...(startExecutionSample === undefined ? {} : { startExecutionSample }),
    calls: Object.fromEntries(Object.entries(callTotals).map(([operation, total]) => [operation, round(total / Math.max(1, callSamples), 3)])),
    ...(recordedCalls.size === 0 ? {} : { recordedCalls: [...recordedCalls] }),
    unexpectedSample,
  };
}

/**
 * The local API for the benchmark, in its own process so the load generator does not share its
 * event loop: the real handlers behind the local gateway with stage throttling OFF (the bench would
 * otherwise measure 429s), local order-ahead workflows (in their own process: scripts/local/workflow-service.ts), the local webhook delivery queue, DYNAMODB_STATS=1 set by the parent (the
 * handlers add X-DynamoDB-Round-Trips / X-DynamoDB-Capacity-Units).
 *
 * On top of those headers this process adds, per request, which DynamoDB operations ran and the
 * read / write capacity split (X-Bench-DynamoDB-Calls, X-Bench-Read-Units, X-Bench-Write-Units):
 * the overhead ratio prices each call at the floor of its own kind and the cost model prices
 * read and write units differently. It hooks the handlers' own client (db() is one per process).
 * X-Bench-DynamoDB-Ms is the wall time the request spent with a DynamoDB call in flight (the time
 * outside it is the handler's, the gateway's and the HTTP hop's); X-Bench-Transact-Items the items of
 * its TransactWriteItems calls and, for requests that carry RECORD_READ_SHAPES_HEADER (the warm-up's), X-Bench-Transact-Bytes
 * their items' mean JSON bytes per call (the floor prices a transaction as a bare one of the same items and bytes);
 * X-Bench-Read-Shapes the items its shaped Query / BatchGetItem calls returned (read-shape.ts addReadShape), only for requests that carry
 * RECORD_READ_SHAPES_HEADER (the warm-up's: sizing items is CPU the measured requests must not pay) (calls:items:bytes:attributes:parallel
 * per operation, bench/floors/read-shape.ts; the floor prices such a read as a bare one of the same shape).
 * X-Bench-Start-Executions counts its Step Functions StartExecution calls and X-Bench-Start-Execution-Sample
 * carries the first one's request (base64url JSON: state machine, name, input), which the StartExecution floor
 * repeats while the bench holds the executions (bench/floors/floor.ts startExecutionFloor).
 * RECORD_CALLS_HEADER (the warm-up's requests of GET endpoints) records the request's calls (bench/floors/twin.ts: each
 * command and its input, in order, and which were in flight together) under the header's value, and answers
 * X-Bench-Recorded-Calls; the twin route (TWIN_PATH, `?recording=<id>`, beside the baseline's) replays the
 * latest such recording of a 2xx answer whose calls were all reads: the read endpoint's own round trips as its floor.
 * X-Bench-Process-CPU-Ms is this process's CPU time so far (gateway and handlers): the load generator
 * takes the difference between its first and last response over the requests in between, which
 * stays a per-request figure at any concurrency (a handler's own X-Handler-CPU-Ms does not).
 *
 * BENCH_CPU_PROFILE_DIRECTORY (set by `npm run bench -- --cpu-prof`) makes bench/harness/stack.ts start this
 * process with `node --cpu-prof`; the profile is written when it exits.
 *
 * The bench runner may ask, over the IPC channel, to hold the local workflow executions while it measures a
 * route that starts them (`{ workflows: 'hold' }`) and to release them (`{ workflows: 'release' }`, answered
 * once they have all finished); see scripts/local/workflow-service.ts. No HTTP request reaches this.
 *
 * Request logs stay on (at info, as deployed) and go to the log file the parent opened; the port is
 * sent to the parent over IPC once the gateway listens.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { db } from '#shared/db/client.ts';
import { withHandlerCpuHeader, withStatsHeaders } from '#shared/http/bench-headers.ts';
import { startLocalDeliveryQueue } from '../../scripts/local/delivery-queue.ts';
import { LOCAL_IMAGES_BUCKET, startS3Local } from '../../scripts/local/s3.ts';
import { holdLocalWorkflows, releaseLocalWorkflows, startLocalWorkflows } from '../../scripts/local/workflows.ts';
import { createGateway, listen } from '../../scripts/local/gateway.ts';
import { BASELINE_PATH, handler as baselineHandler } from './baseline-handler.ts';
import {
  addReadShape,
  formatReadShapes,
  RECORD_READ_SHAPES_HEADER,
  returnedItems,
  SHAPED_READS,
  type ReadShapeTotals,
  type ShapedRead,
} from '../floors/read-shape.ts';
import {
  CallRecorder,
  installCallRecording,
  describeRecording,
  RECORD_CALLS_HEADER,
  RECORDED_CALLS_HEADER,
  replay,
  replayable,
  TWIN_PATH,
  type CallRecording,
} from '../floors/twin.ts';
import { transactionBytes } from '../floors/floor.ts';

interface CallStats {
  calls: Map<string, number>;
  readUnits: number;
  writeUnits: number;
  /** Items written by the request's TransactWriteItems calls (the floor prices a transaction at its size). */
  transactItems: number;
  /** Those calls' items' JSON bytes (transactionBytes), sized only when the request records its shapes. */
  transactBytes: number;
  /** Shaped reads (read-shape.ts addReadShape: a Query that returned any item, a BatchGetItem of several items or one large one), with their items (the floor prices such a read at its shape). */
  readShapes: Partial<Record<ShapedRead, ReadShapeTotals>>;
  /** Query / BatchGetItem calls in flight now (the shapes' `parallel` is the peak). */
  shapedInFlight: Partial<Record<ShapedRead, number>>;
  /** Wall time with at least one DynamoDB call in flight (parallel calls count once). */
  dynamoMs: number;
  /** StartExecution calls, and the first one's request (the StartExecution floor repeats it). */
  starts: number;
  startSample?: string;
  /** The request asked for its read shapes (RECORD_READ_SHAPES_HEADER: the warm-up's requests only). */
  recordShapes: boolean;
  /** The request's calls, when it asked for them (RECORD_CALLS_HEADER), and the recording id it gave. */
  recorder?: CallRecorder;
  recordingId?: string;
  inFlight: number;
  busySince: number;
}

const READ_OPERATIONS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const SHAPED = new Set<string>(SHAPED_READS);
const requestScope = new AsyncLocalStorage<CallStats>();

type Capacity = { CapacityUnits?: number };

db().middlewareStack.add(
  (next, context) => async (args) => {
    const stats = requestScope.getStore();
    if (!stats) return next(args);
    const operation = String(context.commandName ?? 'Unknown').replace(/Command$/, '');
    stats.calls.set(operation, (stats.calls.get(operation) ?? 0) + 1);
    if (operation === 'TransactWriteItems') {
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems ?? [];
      stats.transactItems += items.length;
      // Serialising the items is CPU the measured requests must not pay: the warm-up's only, as for read shapes.
      if (stats.recordShapes) stats.transactBytes += transactionBytes(items);
    }
    const shaped = SHAPED.has(operation) ? (operation as ShapedRead) : undefined;
    const totals = shaped && (stats.readShapes[shaped] ??= { calls: 0, items: 0, bytes: 0, attributes: 0, parallel: 0 });
    if (shaped && totals) totals.parallel = Math.max(totals.parallel, (stats.shapedInFlight[shaped] = (stats.shapedInFlight[shaped] ?? 0) + 1));
    if (stats.inFlight++ === 0) stats.busySince = performance.now();
    const result = await next(args).finally(() => {
      if (--stats.inFlight === 0) stats.dynamoMs += performance.now() - stats.busySince;
      if (shaped) stats.shapedInFlight[shaped]! -= 1;
    });
    // At the initialize step the document client has unmarshalled the output: the items as the handler gets them.
    // Sizing the items serialises each of them: only for the warm-up's requests, never for measured ones.
    if (shaped && totals && stats.recordShapes) addReadShape(totals, returnedItems(shaped, result.output), shaped);
    const consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
    const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
    if (READ_OPERATIONS.has(operation)) stats.readUnits += units;
    else stats.writeUnits += units;
    return result;
  },
  { step: 'initialize', name: 'benchCallStats' },
);

installCallRecording(db(), () => requestScope.getStore()?.recorder);

// The routes' SFN client is built inside shared/workflows/executions.ts, out of this process's reach, so
// StartExecution calls are counted on every SFN client's send (this process only: the bench server).
// eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the client as `this` by the counting wrapper below
const sfnSend = SFNClient.prototype.send as (this: SFNClient, command: unknown, ...rest: unknown[]) => Promise<unknown>;
(SFNClient.prototype as unknown as { send: typeof sfnSend }).send = function (this: SFNClient, command: unknown, ...rest: unknown[]) {
  const stats = requestScope.getStore();
  if (stats && command instanceof StartExecutionCommand) {
    // Recorded so that the request's recording is not replayable (the twin replays DynamoDB reads only).
    stats.recorder?.start('StartExecution', {})();
    if (stats.starts++ === 0) {
      const { stateMachineArn, name, input } = command.input;
      stats.startSample = Buffer.from(JSON.stringify({ stateMachineArn, name, input })).toString('base64url');
    }
  }
  return sfnSend.call(this, command, ...rest);
};

await startLocalWorkflows();
// The image upload routes sign a POST to the images bucket (no S3 call): the local S3 server, as `npm start` runs it.
const s3 = await startS3Local({ directory: fileURLToPath(new URL('../tmp/s3', import.meta.url)) });
process.env.S3_ENDPOINT = s3.endpoint;
process.env.IMAGES_BUCKET ??= LOCAL_IMAGES_BUCKET;
// Replays queue deliveries: the local FIFO queue and its consumer, to loopback receivers, as on `npm start`.
process.env.ALLOW_HTTP_CALLBACKS ??= 'true';
await startLocalDeliveryQueue();
/**
 * The baseline endpoint with the bench-mode instrumentation every API handler runs under DYNAMODB_STATS=1
 * (the same wrappers, shared/http/bench-headers.ts withHandlerCpuHeader and withStatsHeaders): process.cpuUsage around the invocation
 * and X-Handler-CPU-Ms, a withDbStats scope (its AsyncLocalStorage, and ReturnConsumedCapacity on the call)
 * and the X-DynamoDB-* headers. Without it the endpoints paid that bench-only work and their baseline did
 * not; with it the difference between them is the handlers' own work only, and the baseline reports its own
 * handler CPU beside theirs. Deployed, neither runs it.
 */
const instrumentedBaseline = withHandlerCpuHeader(withStatsHeaders(baselineHandler));

/** The latest replayable recording of each id (a 2xx answer, reads only): what the twin route replays. */
const recordings = new Map<string, CallRecording>();
const TWIN_HEADERS = { 'Content-Type': 'application/json' };
/**
 * A read endpoint's twin (bench/floors/twin.ts): its recorded calls again, through the handlers' own client, under the
 * same instrumentation as the baseline and every handler; a small fixed body, like the baseline's.
 */
const instrumentedTwin = withHandlerCpuHeader(
  withStatsHeaders(async (event) => {
    const recording = recordings.get(event.queryStringParameters?.recording ?? '');
    if (!recording) return { statusCode: 404, headers: TWIN_HEADERS, body: '{"replayed":false}' };
    await replay(recording, (command) => db().send(command as never));
    return { statusCode: 200, headers: TWIN_HEADERS, body: '{"replayed":true}' };
  }),
);
const server = createGateway({
  throttling: false,
  extraRoutes: [
    { method: 'GET', path: BASELINE_PATH, name: 'bench-baseline', handler: instrumentedBaseline },
    { method: 'GET', path: TWIN_PATH, name: 'bench-twin', handler: instrumentedTwin },
  ],
});
server.keepAliveTimeout = 60_000;

function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

const [gatewayListener] = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
server.removeAllListeners('request');
server.on('request', (request: IncomingMessage, response: ServerResponse) => {
  const recordShapes = request.headers[RECORD_READ_SHAPES_HEADER] !== undefined;
  const recordingId = request.headers[RECORD_CALLS_HEADER];
  const stats: CallStats = {
    calls: new Map(),
    readUnits: 0,
    writeUnits: 0,
    transactItems: 0,
    transactBytes: 0,
    readShapes: {},
    shapedInFlight: {},
    dynamoMs: 0,
    starts: 0,
    recordShapes,
    inFlight: 0,
    busySince: 0,
  };
  if (typeof recordingId === 'string') Object.assign(stats, { recorder: new CallRecorder(), recordingId });
  const writeHead = response.writeHead.bind(response) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  (response as { writeHead: unknown }).writeHead = (status: number, headers: OutgoingHttpHeaders = {}) => {
    const recorded = stats.recorder && describeRecording(stats.recorder.groups);
    const transactions = stats.calls.get('TransactWriteItems') ?? 0;
    if (stats.recorder && status >= 200 && status < 300 && replayable(stats.recorder.groups.map((group) => group.map((call) => call.operation))))
      recordings.set(stats.recordingId!, stats.recorder.groups);
    return writeHead(status, {
      ...headers,
      'X-Bench-DynamoDB-Calls': [...stats.calls].map(([operation, count]) => `${operation}=${count}`).join(','),
      'X-Bench-Read-Units': String(stats.readUnits),
      'X-Bench-Write-Units': String(stats.writeUnits),
      'X-Bench-Process-CPU-Ms': processCpuMs().toFixed(3),
      'X-Bench-DynamoDB-Ms': stats.dynamoMs.toFixed(3),
      'X-Bench-Transact-Items': String(stats.transactItems),
      ...(recordShapes && transactions > 0 ? { 'X-Bench-Transact-Bytes': String(Math.round(stats.transactBytes / transactions)) } : {}),
      ...(recordShapes ? { 'X-Bench-Read-Shapes': formatReadShapes(stats.readShapes) } : {}),
      'X-Bench-Start-Executions': String(stats.starts),
      ...(stats.startSample === undefined ? {} : { 'X-Bench-Start-Execution-Sample': stats.startSample }),
      ...(recorded === undefined ? {} : { [RECORDED_CALLS_HEADER]: recorded }),
    });
  };
  requestScope.run(stats, () => gatewayListener!(request, response));
});

const port = await listen(server, { port: 0 });
// The workflow service's endpoint: the bench's StartExecution floor calls it as the routes do.
process.send?.({ port, workflowsEndpoint: process.env.STEPFUNCTIONS_ENDPOINT });
process.on('message', (message: { workflows?: 'hold' | 'release' }) => {
  const request =
    message.workflows === 'hold'
      ? holdLocalWorkflows().then(() => ({ workflows: 'held' }))
      : message.workflows === 'release'
        ? releaseLocalWorkflows().then((executions) => ({ workflows: 'drained', executions }))
        : undefined;
  request?.then(
    (answer) => process.send?.(answer),
    (error: unknown) => process.send?.({ workflows: 'failed', error: (error as Error).message }),
  );
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

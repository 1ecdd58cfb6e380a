/**
 * `npm run bench` (about 5 minutes) / `npm run bench -- --quick` (about 75 s on 2 cores: DynamoDB Local start, seeding and bundling 38 functions are fixed costs).
 *
 * Starts its own stack on fresh data (in-memory DynamoDB Local, a new table, the gateway with
 * throttling off in a child process), seeds it through the domain library and the API, then measures
 * side by side in one run: the DynamoDB floor, every benchmarked endpoint at concurrency 1 and 16,
 * the order-ahead start -> valid flow, paging cost at 10 and 10,000 records, and cold starts.
 * Prints a table and writes docs/benchmarks.md, docs/cost.md and bench/results/<mode>.json.
 * `-- --report-only` (with or without `--quick`) re-renders the docs from the saved results.
 * `-- --cold-start` (with or without `--quick`) measures only the cold starts (bundles, the baseline and
 * the Powertools reference rows), prints them and saves bench/results/cold-start.json; docs untouched.
 * `-- --cold-start --powertools`: only the baseline and the Powertools rows, 30 runs each (what each
 * utility adds, with enough runs to see it through a shared machine's noise).
 * `-- --only=users-show,completed-order` (with or without `--quick`): only those endpoint scenarios (ids from
 * bench/scenarios.ts; `order-ahead` for the start -> 200 flow) between the floors, no paging or cold starts;
 * prints the table and saves bench/results/only.json, docs untouched. For profiling one endpoint.
 * `-- --cpu-prof` (any mode): the gateway process runs under `node --cpu-prof`; its profile lands in
 * bench/tmp/profiles/ and `npx tsx bench/profile.ts` summarises where the CPU went.
 * Never run by `npm test`; figures come from here, not from timed assertions.
 */
import { cpus, freemem, loadavg, totalmem, platform, release } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchStack, BENCH_DIRECTORY } from './stack.ts';
import { localStateMachineArn } from '../scripts/local/workflow-protocol.ts';
import { closedLoop, httpLoad, median, round, type HttpLoadResult, type LatencySummary } from './measure.ts';
import type { FloorResult } from './floor.ts';
import { callPriceAdjustment, SINGLE_WRITES } from './call-prices.ts';
import { floorShape, shapedReadAdjustment, SHAPED_READS, type FloorShape, type ShapedRead } from './read-shape.ts';
import type { ColdStartRow } from './cold-start.ts';
import type { HistoryResult } from './history.ts';
import type { IntrinsicWork, MinimumRoundTrips } from './scenarios.ts';

const quick = process.argv.includes('--quick');
/** `--only=a,b`: the scenario ids to run (every one when absent). */
const only = process.argv.find((argument) => argument.startsWith('--only='))?.slice('--only='.length).split(',').filter(Boolean);
const selected = (id: string) => only === undefined || only.includes(id);
if (process.argv.includes('--cpu-prof')) process.env.BENCH_CPU_PROFILE_DIRECTORY ??= join(BENCH_DIRECTORY, 'tmp', 'profiles');
const CONCURRENCIES = [1, 16] as const;
type Concurrency = (typeof CONCURRENCIES)[number];

/** How long / how much each measurement runs. Full: ~5 minutes in all; quick: about 75 s (a sanity run of every figure). */
const PLAN = quick
  ? { durationMs: 400, warmupRequests: 4, floorMs: 400, adjacentFloorMs: 100, adjacentHashMs: 300, jvmWarmupMs: 1_000, consumable: { 1: 10, 16: 32 }, orderAheadFlows: { 1: 3, 16: 16 }, coldStartRuns: 1, historyRecords: 500 }
  : { durationMs: 4_000, warmupRequests: 40, floorMs: 3_000, adjacentFloorMs: 750, adjacentHashMs: 2_000, jvmWarmupMs: 5_000, consumable: { 1: 100, 16: 400 }, orderAheadFlows: { 1: 30, 16: 96 }, coldStartRuns: 10, historyRecords: 10_000 };

/**
 * How often the bench looks at an order-ahead order's state in the table while it validates. The bench
 * watches the item directly and polls the API once, as soon as the order is no longer validating: the
 * flow a client sees when its poll comes right on time (a poll any earlier only adds a 202).
 */
const ORDER_AHEAD_WATCH_MS = { 1: 10, 16: 40 } as const;

const startedAt = Date.now();
function progress(message: string): void {
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  process.stderr.write(`[bench ${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}] ${message}\n`);
}

export interface EndpointRun {
  concurrency: Concurrency;
  load: HttpLoadResult;
  /**
   * Floor p50s measured right before this run, at this concurrency (what its overhead ratio uses); the
   * transaction floor is a bare TransactWriteItems of `transactItems` items (the endpoint's own size).
   */
  adjacentFloor: {
    getItemP50: number;
    transactWriteP50: number;
    transactItems?: number;
    /**
     * p50 of the baseline endpoint (bench/baseline-handler.ts: one GetItem, no framework) through the same
     * gateway and HTTP client: the local HTTP hop plus one GetItem. Absent in results from before it existed.
     */
    baselineP50?: number;
    /** p50 of a bare password hash with the handlers' parameters (scenarios with `intrinsic: 'passwordHash'`). */
    passwordHashP50?: number;
    /**
     * p50 of a bare Query / BatchGetItem of the endpoint's own shape (its warm-up's multi-item calls: items
     * per call, bytes and attributes per item, bucketed), for endpoints whose warm-up made such calls.
     */
    reads?: Partial<Record<ShapedRead, { p50: number; shape: FloorShape }>>;
    /** p50 of a bare conditional UpdateItem, for endpoints whose warm-up made single-item writes (PutItem, UpdateItem, DeleteItem). */
    singleWriteP50?: number;
    /** p50 of a bare StartExecution to the local workflow service, for endpoints whose warm-up started executions. */
    startExecutionP50?: number;
  };
  /**
   * The request's floor at this concurrency: the baseline endpoint's p50 (HTTP hop + one GetItem) plus its
   * other DynamoDB calls, each at the floor p50 of its kind, plus any intrinsic work (a password hash).
   */
  floorMs: number | null;
  overheadRatio: number | null;
}

export interface EndpointRow {
  id: string;
  title: string;
  route: string;
  available: boolean;
  note?: string;
  minimum: MinimumRoundTrips;
  /** Work the endpoint must do by design, priced into its floor (bench/scenarios.ts). */
  intrinsic?: IntrinsicWork;
  runs: EndpointRun[];
}

export interface OrderAheadRun {
  concurrency: Concurrency;
  summary: LatencySummary;
  errors: number;
  firstError?: string;
  pollsPerFlow: number;
  startRoundTrips: number | null;
  startCapacityUnits: number | null;
  pollRoundTrips: number | null;
  pollCapacityUnits: number | null;
  /** Read / write units of one start and of the poll that answered 200. */
  startUnits: { read: number; write: number } | null;
  pollUnits: { read: number; write: number } | null;
  /** Median latency of the start request alone and of the 200 poll alone. */
  startP50Ms: number;
  pollP50Ms: number;
}

export interface OrderAheadRow {
  available: boolean;
  note?: string;
  runs: OrderAheadRun[];
}

export interface BenchResults {
  command: string;
  mode: 'quick' | 'full';
  date: string;
  durationSeconds: number;
  machine: { cpuModel: string; cores: number; memoryGb: number; freeMemoryGbAtStart: number; node: string; platform: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  plan: typeof PLAN;
  throttling: 'disabled (createGateway({ throttling: false }))';
  seedProblems: Record<string, string>;
  floor: { start: FloorResult[]; end: FloorResult[] };
  endpoints: EndpointRow[];
  orderAhead: OrderAheadRow;
  history: HistoryResult | { unavailable: string };
  coldStarts: ColdStartRow[];
}

function machineFacts(): Omit<BenchResults['machine'], 'loadAverageAtEnd'> {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGb: round(totalmem() / 1024 ** 3, 1),
    freeMemoryGbAtStart: round(freemem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${platform()} ${release()}`,
    loadAverageAtStart: loadavg().map((value) => round(value, 2)),
  };
}

/**
 * At least this many samples of a shaped read floor, whatever the plan's duration: in quick mode (100 ms) a
 * group of parallel reads at c=16 otherwise gives a handful of samples, too few for a p50.
 */
const SHAPED_READ_FLOOR_MINIMUM_SAMPLES = 40;

const TRANSACTION_OPERATIONS = new Set(['TransactWriteItems', 'BatchWriteItem']);

/**
 * A request's floor: the baseline endpoint's p50 (the local HTTP hop and gateway, plus one GetItem) and
 * its other DynamoDB calls, each at the floor of its kind (transactions at the TransactWriteItems floor
 * of the endpoint's size, a Query that returned any item, or a BatchGetItem that returned two items or more (or one large
 * item), at the bare read of the endpoint's shape, a PutItem / UpdateItem / DeleteItem at the bare conditional UpdateItem floor, everything
 * else at the GetItem floor), its StartExecution calls at the bare StartExecution floor, plus intrinsic work
 * (a password hash).
 * So the hop is priced once per request as baseline - GetItem floor; without a baseline (older
 * results) the hop is not priced at all.
 */
export function floorFor(load: HttpLoadResult, floor: EndpointRun['adjacentFloor'], intrinsic?: IntrinsicWork): number | null {
  const entries = Object.entries(load.calls);
  const calls =
    entries.length === 0
      ? load.roundTrips === null
        ? null
        : load.roundTrips * floor.getItemP50
      : entries.reduce((sum, [operation, count]) => sum + count * (TRANSACTION_OPERATIONS.has(operation) ? floor.transactWriteP50 : floor.getItemP50), 0) + shapedReadAdjustment(load, floor) + callPriceAdjustment(load, floor);
  if (calls === null) return null;
  const hop = floor.baselineP50 === undefined ? 0 : floor.baselineP50 - floor.getItemP50;
  const work = intrinsic === 'passwordHash' ? (floor.passwordHashP50 ?? 0) : 0;
  return calls + hop + work;
}

async function main(): Promise<void> {
  const runId = randomUUID().slice(0, 8);
  const machine = machineFacts();
  progress(`${quick ? 'quick' : 'full'} run on ${machine.cores} x ${machine.cpuModel}, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(' ')}`);
  progress('starting DynamoDB Local (in memory), a fresh table and the gateway (throttling disabled)');
  const stack = await startBenchStack();
  const results: Partial<BenchResults> = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    mode: quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    plan: PLAN,
    throttling: 'disabled (createGateway({ throttling: false }))',
  };
  try {
    // Imported after the stack set TABLE_NAME / DYNAMODB_ENDPOINT for this process.
    const { seedWorld } = await import('./seed.ts');
    const { getItemFloor, transactWriteFloor, passwordHashFloor, shapedReadFloor, singleWriteFloor, startExecutionFloor } = await import('./floor.ts');
    const { BASELINE_PATH } = await import('./baseline-handler.ts');
    /** The baseline endpoint through the gateway, at this concurrency: the price of the HTTP hop plus one GetItem. */
    const baselineP50 = async (concurrency: number, durationMs: number): Promise<number> => {
      const load = await httpLoad({ baseUrl: stack.baseUrl, connections: concurrency, limit: { durationMs }, next: () => ({ method: 'GET', path: BASELINE_PATH }), expectedStatuses: [200] });
      if (load.statuses['200'] === undefined || load.errors > 0) throw new Error(`the baseline endpoint failed: ${load.unexpectedSample ?? `${load.errors} socket errors`}`);
      return load.summary.p50;
    };
    const { scenarios, createApi, orderAheadStartBody } = await import('./scenarios.ts');
    const { measureHistory } = await import('./history.ts');
    const { measureColdStarts } = await import('./cold-start.ts');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, table } = await import('#shared/db/client.ts');
    const { keys } = await import('#shared/db/keys.ts');
    /** The order's state as stored (an eventually consistent read would lag). */
    const orderAheadState = async (uuid: string): Promise<unknown> =>
      (await db().send(new GetCommand({ TableName: table(), Key: keys.orderAheadOrder(uuid), ProjectionExpression: '#state', ExpressionAttributeNames: { '#state': 'state' }, ConsistentRead: true }))).Item?.state;
    const { writeReports, terminalTable } = await import('./report.ts');

    progress('seeding: app, merchant, 10 locations, campaign, menu, 32 users with tokens and cards');
    const world = await seedWorld(runId);
    for (const [piece, problem] of Object.entries(world.problems)) progress(`seed: ${piece} not created (${problem})`);
    results.seedProblems = world.problems;
    const api = createApi(stack.baseUrl);

    const measureFloor = async (): Promise<FloorResult[]> => {
      const measured: FloorResult[] = [];
      for (const concurrency of CONCURRENCIES) {
        measured.push(await getItemFloor(world.users[0]!.token, concurrency, { durationMs: PLAN.floorMs }));
        measured.push(await transactWriteFloor(runId, concurrency, { durationMs: PLAN.floorMs }));
      }
      for (const result of measured) progress(`floor ${result.operation} c=${result.concurrency}: p50 ${result.summary.p50} ms, ${result.summary.rps} ops/s`);
      return measured;
    };
    // DynamoDB Local is a JVM: its first seconds of traffic run slower while the JIT compiles.
    progress(`warming up DynamoDB Local's JVM for ${PLAN.jvmWarmupMs / 1000} s`);
    await getItemFloor(world.users[0]!.token, 16, { durationMs: PLAN.jvmWarmupMs / 2 });
    await transactWriteFloor(`${runId}-warmup`, 16, { durationMs: PLAN.jvmWarmupMs / 2 });
    await baselineP50(16, PLAN.adjacentFloorMs);
    progress('floor (before the endpoints): bare GetItem and TransactWriteItems');
    const floorStart = await measureFloor();

    const endpointLoads: { row: EndpointRow; loads: Map<Concurrency, { load: HttpLoadResult; adjacentFloor: EndpointRun['adjacentFloor'] }> }[] = [];
    for (const scenario of scenarios.filter((candidate) => selected(candidate.id))) {
      const route = `${scenario.route.method} ${scenario.route.path}`;
      const row: EndpointRow = { id: scenario.id, title: scenario.title, route, available: false, minimum: scenario.minimum, ...(scenario.intrinsic ? { intrinsic: scenario.intrinsic } : {}), runs: [] };
      const unavailable = (scenario.needs ?? []).filter((piece) => world[piece] === undefined).map((piece) => `seed did not create ${piece}`)[0];
      if (unavailable) {
        row.note = `not available: ${unavailable}`;
        progress(`${scenario.id}: ${row.note}`);
        endpointLoads.push({ row, loads: new Map() });
        continue;
      }
      const loads = new Map<Concurrency, { load: HttpLoadResult; adjacentFloor: EndpointRun['adjacentFloor'] }>();
      try {
        const warmupFor = (concurrency: Concurrency) => Math.max(PLAN.warmupRequests, 2 * concurrency);
        const perRun = (concurrency: Concurrency) => warmupFor(concurrency) + (scenario.consumable ? PLAN.consumable[concurrency] : 0) + concurrency + 2;
        const count = CONCURRENCIES.reduce((sum, concurrency) => sum + perRun(concurrency), 0);
        progress(`${scenario.id}: preparing${scenario.consumable ? ` ${count} requests' worth of data` : ''}`);
        const next = await scenario.prepare({ world, api, runId, count, quick });
        // Its executions wait until its runs are over (on AWS they never share the requests' CPU); released below.
        if (scenario.holdsWorkflows) await stack.holdWorkflows();
        for (const concurrency of CONCURRENCIES) {
          const onResponse = scenario.onResponse ? (status: number, body: string) => scenario.onResponse!(world, status, body) : undefined;
          const warmup = await httpLoad({ baseUrl: stack.baseUrl, connections: concurrency, limit: { amount: warmupFor(concurrency) }, next, expectedStatuses: scenario.expectedStatuses, onResponse });
          // The floor again, right next to this run: the machine's load drifts over minutes. A transaction
          // is priced as a bare one of the endpoint's own size (as many items as its warm-up's averaged).
          const transactItems = Math.max(2, Math.round(warmup.itemsPerTransaction ?? 2));
          const adjacentFloor: EndpointRun['adjacentFloor'] = {
            getItemP50: (await getItemFloor(world.users[0]!.token, concurrency, { durationMs: PLAN.adjacentFloorMs })).summary.p50,
            transactWriteP50: (await transactWriteFloor(runId, concurrency, { durationMs: PLAN.adjacentFloorMs }, transactItems)).summary.p50,
            transactItems,
            baselineP50: await baselineP50(concurrency, PLAN.adjacentFloorMs),
            ...(scenario.intrinsic === 'passwordHash' ? { passwordHashP50: (await passwordHashFloor(concurrency, { durationMs: PLAN.adjacentHashMs })).summary.p50 } : {}),
          };
          // A shaped read (a Query that returned any item; a BatchGetItem of several items or one large one) is priced
          // as a bare one of the endpoint's shape (the items its warm-up's shaped calls returned, their size and attributes, bucketed).
          for (const operation of SHAPED_READS) {
            const shape = warmup.readShapes?.[operation];
            if (!shape || shape.callsPerRequest === 0) continue;
            const measured = await shapedReadFloor(runId, operation, floorShape(shape), concurrency, { durationMs: PLAN.adjacentFloorMs, minimumAmount: SHAPED_READ_FLOOR_MINIMUM_SAMPLES });
            (adjacentFloor.reads ??= {})[operation] = { p50: measured.summary.p50, shape: measured.shape! };
          }
          // A single-item write is priced as a bare conditional UpdateItem (DynamoDB Local's conditional write).
          if (SINGLE_WRITES.some((operation) => (warmup.calls[operation] ?? 0) > 0)) adjacentFloor.singleWriteP50 = (await singleWriteFloor(runId, concurrency, { durationMs: PLAN.adjacentFloorMs })).summary.p50;
          // A StartExecution is priced as a bare one: a repeat of a warm-up's STANDARD execution, answered as the
          // first and starting nothing, which holds only while the executions are held (never run against data).
          const sample = warmup.startExecutionSample;
          if ((warmup.startExecutions ?? 0) > 0 && scenario.holdsWorkflows && sample && stack.workflowsEndpoint && sample.stateMachineArn === localStateMachineArn('completion')) {
            adjacentFloor.startExecutionP50 = (await startExecutionFloor(stack.workflowsEndpoint, sample, concurrency, { durationMs: PLAN.adjacentFloorMs })).summary.p50;
          }
          const load = await httpLoad({
            baseUrl: stack.baseUrl,
            connections: concurrency,
            limit: scenario.consumable ? { amount: PLAN.consumable[concurrency] } : { durationMs: PLAN.durationMs },
            next,
            expectedStatuses: scenario.expectedStatuses,
            onResponse,
          });
          loads.set(concurrency, { load, adjacentFloor });
          const unexpected = Object.entries(load.statuses).filter(([status]) => !scenario.expectedStatuses.includes(Number(status)));
          progress(
            `${scenario.id} c=${concurrency}: p50 ${load.summary.p50} ms, p99 ${load.summary.p99} ms, ${load.summary.rps} req/s, ${load.roundTrips ?? '?'} round trips` +
              (unexpected.length > 0 ? `; UNEXPECTED ${unexpected.map(([status, count]) => `${count}x${status}`).join(' ')}: ${load.unexpectedSample}` : ''),
          );
          if (unexpected.length > 0) row.note = `unexpected responses: ${load.unexpectedSample}`;
        }
        row.available = true;
      } catch (error) {
        row.note = `not available: setup failed: ${(error as Error).message.slice(0, 300)}`;
        progress(`${scenario.id}: ${row.note}`);
      }
      // The next measurement needs a quiet machine: it starts once the held executions have all finished.
      if (scenario.holdsWorkflows) progress(`${scenario.id}: ran the ${await stack.releaseWorkflows()} workflow executions it held`);
      endpointLoads.push({ row, loads });
    }

    // Order ahead: start, then poll order_url until it stops answering 202.
    const orderAhead: OrderAheadRow = { available: false, runs: [] };
    if (!selected('order-ahead')) {
      orderAhead.note = 'not selected (--only)';
    } else if (world.menuItemId === undefined) {
      orderAhead.note = 'not available: seed did not create the order-ahead menu';
      progress(`order ahead: ${orderAhead.note}`);
    } else {
      for (const concurrency of CONCURRENCIES) {
        let polls = 0;
        let flows = 0;
        const stats = {
          startRoundTrips: null as number | null,
          startCapacityUnits: null as number | null,
          pollRoundTrips: null as number | null,
          pollCapacityUnits: null as number | null,
          startUnits: null as { read: number; write: number } | null,
          pollUnits: null as { read: number; write: number } | null,
        };
        const startLatencies: number[] = [];
        const pollLatencies: number[] = [];
        const header = (headers: Headers, name: string) => (headers.get(name) === null ? null : Number(headers.get(name)));
        const units = (headers: Headers) => ({ read: header(headers, 'x-bench-read-units') ?? 0, write: header(headers, 'x-bench-write-units') ?? 0 });
        const run = await closedLoop(concurrency, { amount: PLAN.orderAheadFlows[concurrency] }, async (worker) => {
          const user = world.users[worker % world.users.length]!;
          const startSentAt = performance.now();
          const started = await api.call('POST', '/v15/order_ahead/orders', { token: user.token, body: orderAheadStartBody(world) });
          startLatencies.push(performance.now() - startSentAt);
          const orderUrl = started.body?.order?.order_url;
          const uuid = started.body?.order?.uuid;
          if (started.status !== 200 || typeof orderUrl !== 'string' || typeof uuid !== 'string') throw new Error(`start answered ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
          stats.startRoundTrips = header(started.headers, 'x-dynamodb-round-trips');
          stats.startCapacityUnits = header(started.headers, 'x-dynamodb-capacity-units');
          stats.startUnits = units(started.headers);
          const deadline = performance.now() + 15_000;
          while ((await orderAheadState(uuid)) === 'externally_validating') {
            if (performance.now() > deadline) throw new Error('still validating after 15 s');
            await sleep(ORDER_AHEAD_WATCH_MS[concurrency]);
          }
          const pollSentAt = performance.now();
          const polled = await api.call('GET', orderUrl, { token: user.token });
          pollLatencies.push(performance.now() - pollSentAt);
          polls += 1;
          if (polled.status !== 200) throw new Error(`poll answered ${polled.status} ${JSON.stringify(polled.body).slice(0, 300)}`);
          stats.pollRoundTrips = header(polled.headers, 'x-dynamodb-round-trips');
          stats.pollCapacityUnits = header(polled.headers, 'x-dynamodb-capacity-units');
          stats.pollUnits = units(polled.headers);
          flows += 1;
        });
        orderAhead.runs.push({ concurrency, summary: run.summary, errors: run.errors, firstError: run.firstError, pollsPerFlow: round(polls / Math.max(1, flows), 1), ...stats, startP50Ms: round(median(startLatencies)), pollP50Ms: round(median(pollLatencies)) });
        progress(`order ahead start -> 200 c=${concurrency}: p50 ${run.summary.p50} ms, p99 ${run.summary.p99} ms, ${round(polls / Math.max(1, flows), 1)} polls/flow${run.errors ? `; ${run.errors} errors: ${run.firstError}` : ''}`);
        if (run.summary.count > 0) orderAhead.available = true;
        else orderAhead.note = `failed: ${run.firstError}`;
      }
    }

    progress('floor (after the endpoints)');
    const floorEnd = await measureFloor();
    results.floor = { start: floorStart, end: floorEnd };
    results.endpoints = endpointLoads.map(({ row, loads }) => ({
      ...row,
      runs: [...loads].map(([concurrency, { load, adjacentFloor }]) => {
        const floorMs = floorFor(load, adjacentFloor, row.intrinsic);
        return { concurrency, load, adjacentFloor, floorMs: floorMs === null ? null : round(floorMs, 3), overheadRatio: floorMs ? round(load.summary.p50 / floorMs, 2) : null };
      }),
    }));
    results.orderAhead = orderAhead;

    if (only) {
      results.history = { unavailable: 'not selected (--only)' };
      results.coldStarts = [];
    } else {
      progress(`history: paging at 10 and ${PLAN.historyRecords} records`);
      try {
        results.history = await measureHistory({ api, world, records: PLAN.historyRecords, progress });
      } catch (error) {
        results.history = { unavailable: (error as Error).message.slice(0, 300) };
      }

      progress(`cold starts: bundling every function with the CDK's esbuild settings`);
      results.coldStarts = await measureColdStarts({ world, runs: PLAN.coldStartRuns, environment: stack.tableEnvironment, progress });
    }

    results.durationSeconds = Math.round((Date.now() - startedAt) / 1000);
    results.machine = { ...machine, loadAverageAtEnd: loadavg().map((value) => round(value, 2)) };
    const complete = results as BenchResults;
    const resultsDirectory = join(BENCH_DIRECTORY, 'results');
    mkdirSync(resultsDirectory, { recursive: true });
    const resultsName = only ? 'only' : complete.mode;
    writeFileSync(join(resultsDirectory, `${resultsName}.json`), `${JSON.stringify(complete, null, 2)}\n`);
    if (!only) writeReports(complete, `bench/results/${complete.mode}.json`);
    process.stdout.write(`\n${terminalTable(complete)}\n`);
    progress(`done in ${complete.durationSeconds} s: ${only ? '' : 'docs/benchmarks.md, docs/cost.md, '}bench/results/${resultsName}.json (server log: ${stack.serverLog})`);
  } finally {
    await stack.stop();
  }
}

/** `--cold-start`: the cold-start part alone (about 2 minutes full, 20 s quick), for changes to what bundles carry. */
async function coldStartOnly(): Promise<void> {
  progress('starting DynamoDB Local (in memory) and a fresh table for the cold-start probes');
  const stack = await startBenchStack();
  try {
    const { seedWorld } = await import('./seed.ts');
    const { measureColdStarts } = await import('./cold-start.ts');
    const world = await seedWorld(randomUUID().slice(0, 8));
    const referencesOnly = process.argv.includes('--powertools');
    const runs = referencesOnly ? 30 : PLAN.coldStartRuns;
    const coldStarts = await measureColdStarts({ world, runs, environment: stack.tableEnvironment, progress, referencesOnly });
    const resultsDirectory = join(BENCH_DIRECTORY, 'results');
    mkdirSync(resultsDirectory, { recursive: true });
    const machine = { ...machineFacts(), loadAverageAtEnd: loadavg().map((value) => round(value, 2)) };
    const file = referencesOnly ? 'powertools.json' : 'cold-start.json';
    const command = `npm run bench -- --cold-start${referencesOnly ? ' --powertools' : ''}${quick ? ' --quick' : ''}`;
    writeFileSync(join(resultsDirectory, file), `${JSON.stringify({ command, date: new Date().toISOString(), runs, machine, coldStarts }, null, 2)}\n`);
    const rows = coldStarts.map((row) =>
      [row.handler.padEnd(40), (row.bundleBytes === undefined ? '-' : (row.bundleBytes / 1024).toFixed(1)).padStart(7), String(row.importMs ?? '-').padStart(7), String(row.firstRequestMs ?? '-').padStart(7), String(row.totalMs ?? '-').padStart(7), String(row.ratio ?? '-').padStart(5), row.note ?? ''].join('  '),
    );
    process.stdout.write(`\n${['function'.padEnd(40), 'KiB'.padStart(7), 'import'.padStart(7), 'first'.padStart(7), 'total'.padStart(7), 'ratio'.padStart(5)].join('  ')}\n${rows.join('\n')}\n`);
    progress(`done: bench/results/${file}`);
  } finally {
    await stack.stop();
  }
}

/** `--report-only`: re-render docs/benchmarks.md and docs/cost.md from the saved results (e.g. after editing bench/notes.md). */
async function reportOnly(): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { writeReports, terminalTable } = await import('./report.ts');
  const mode = quick ? 'quick' : 'full';
  const saved = JSON.parse(readFileSync(join(BENCH_DIRECTORY, 'results', `${mode}.json`), 'utf8')) as BenchResults;
  writeReports(saved, `bench/results/${mode}.json`);
  process.stdout.write(`${terminalTable(saved)}\n`);
}

(process.argv.includes('--report-only') ? reportOnly() : process.argv.includes('--cold-start') ? coldStartOnly() : main()).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);

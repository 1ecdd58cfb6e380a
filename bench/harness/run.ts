/**
 * `npm run bench` (about 5 minutes) / `npm run bench -- --quick` (about 75 s on 2 cores: DynamoDB Local start, seeding and bundling 38 functions are fixed costs).
 *
 * Starts its own stack on fresh data (in-memory DynamoDB Local, a new table, the gateway with
 * throttling off in a child process), seeds it through the domain library and the API, then measures
 * side by side in one run: the DynamoDB floor, every benchmarked endpoint at concurrency 1 and 16,
 * the order-ahead start -> valid flow, paging cost at 10 and 10,000 records, and cold starts.
 * An endpoint's overhead ratio over its target is measured twice more at once and judged by the median of the three
 * (bench/harness/repeat.ts). Prints a table and writes docs/benchmarks.md, docs/cost.md and bench/results/<mode>.json.
 * `-- --report-only` (with or without `--quick`) re-renders the docs from the saved results.
 * `-- --cold-start` (with or without `--quick`) measures only the cold starts (every function, its cold twin
 * and the baseline), prints them and saves bench/results/cold-start.json; docs untouched.
 * `-- --cold-start --sdk-comparison`: the AWS SDK external against bundled (bench/cold-start/cold-start.ts), paired runs;
 * saves bench/results/sdk-comparison.json.
 * `-- --only=users-show,completed-order` (with or without `--quick`): only those endpoint scenarios (ids from
 * bench/scenarios/scenarios.ts; `order-ahead` for the start -> 200 flow) between the floors, no paging or cold starts;
 * prints the table and saves bench/results/only.json, docs untouched. For profiling one endpoint.
 * `-- --cpu-prof` (any mode): the gateway process runs under `node --cpu-prof`; its profile lands in
 * bench/tmp/profiles/ and `npx tsx bench/harness/profile.ts` summarises where the CPU went.
 * Never run by `npm test`; figures come from here, not from timed assertions.
 */
import { cpus, freemem, loadavg, totalmem, platform, release } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchStack, BENCH_DIRECTORY } from './stack.ts';
import { localStateMachineArn } from '../../scripts/local/workflow-protocol.ts';
import { closedLoop, httpLoad, median, round, type HttpLoadResult, type HttpRequestSpec } from './measure.ts';
import type { FloorResult } from '../floors/floor.ts';
import { overheadFloor, SINGLE_WRITES, TRANSACTION_OPERATIONS } from '../floors/call-prices.ts';
import { parseRecordingDescription, RECORD_CALLS_HEADER, replayable, TWIN_PATH } from '../floors/twin.ts';
import { floorShape, RECORD_READ_SHAPES_HEADER, SHAPED_READS, type FloorShape, type ShapedRead } from '../floors/read-shape.ts';
import type { IntrinsicWork } from '../scenarios/scenarios.ts';
import { endpointRun, measureWithRepeats, REPEATS_ON_MISS, type MeasuredRun } from './repeat.ts';
import type { AdjacentSide, BenchPlan, BenchResults, Concurrency, EndpointRow, EndpointRun, EndpointTrial, OrderAheadRow } from '../types.ts';

const quick = process.argv.includes('--quick');
/** `--only=a,b`: the scenario ids to run (every one when absent). */
const only = process.argv
  .find((argument) => argument.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
const selected = (id: string) => only === undefined || only.includes(id);
if (process.argv.includes('--cpu-prof')) process.env.BENCH_CPU_PROFILE_DIRECTORY ??= join(BENCH_DIRECTORY, 'tmp', 'profiles');
const CONCURRENCIES = [1, 16] as const satisfies readonly Concurrency[];

/** A plan setting as [quick, full]: the one this run uses. */
const quickOrFull = <T>(quickValue: T, fullValue: T): T => (quick ? quickValue : fullValue);

/** How long / how much each measurement runs. Full: ~5 minutes in all; quick: about 75 s (a sanity run of every figure). */
const PLAN: BenchPlan = {
  durationMs: quickOrFull(400, 4_000),
  warmupRequests: quickOrFull(4, 40),
  floorMs: quickOrFull(400, 3_000),
  adjacentFloorMs: quickOrFull(100, 750),
  adjacentHashMs: quickOrFull(300, 2_000),
  jvmWarmupMs: quickOrFull(1_000, 5_000),
  consumable: quickOrFull({ 1: 10, 16: 32 }, { 1: 100, 16: 400 }),
  orderAheadFlows: quickOrFull({ 1: 3, 16: 16 }, { 1: 30, 16: 96 }),
  coldStartRuns: quickOrFull(1, 10),
  historyRecords: quickOrFull(500, 10_000),
};

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
 * At least this many samples of each adjacent floor (on each side of the run: the bare calls, the baseline endpoint
 * and the twin) and of each timed endpoint run, whatever the plan's duration: in quick mode (100 ms) a group of
 * parallel reads or a large transaction at c=16 otherwise gives a handful of samples, too few for a p50; and a
 * request slower than the duration (a CSV export at c=16 takes seconds) would give none.
 */
const MINIMUM_SAMPLES = 40;

/** One measurement's floor and overhead ratio (the twin's p50 or the priced floor: bench/floors/call-prices.ts overheadFloor). */
function trialFigures(load: HttpLoadResult, adjacentFloor: EndpointRun['adjacentFloor'], intrinsic: IntrinsicWork | undefined): EndpointTrial {
  const { floorMs, pricedFloorMs, kind } = overheadFloor(load, adjacentFloor, intrinsic);
  const ratio = (floor: number | null) => (floor ? round(load.summary.p50 / floor, 2) : null);
  return {
    p50: load.summary.p50,
    count: load.summary.count,
    floorMs: floorMs === null ? null : round(floorMs, 3),
    overheadRatio: ratio(floorMs),
    floorKind: kind,
    ...(kind === 'twin' ? { pricedFloorMs: pricedFloorMs === null ? null : round(pricedFloorMs, 3), pricedOverheadRatio: ratio(pricedFloorMs) } : {}),
    ...(adjacentFloor.baselineP50 === undefined ? {} : { baselineP50: adjacentFloor.baselineP50 }),
  };
}

async function main(): Promise<void> {
  const runId = randomUUID().slice(0, 8);
  const machine = machineFacts();
  progress(
    `${quick ? 'quick' : 'full'} run on ${machine.cores} x ${machine.cpuModel}, Node ${machine.node}; load average ${machine.loadAverageAtStart.join(' ')}`,
  );
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
    const { getItemFloor, transactWriteFloor, passwordHashFloor, shapedReadFloor, singleWriteFloor, startExecutionFloor } = await import('../floors/floor.ts');
    const { BASELINE_PATH } = await import('./baseline-handler.ts');
    /** The baseline endpoint through the gateway, at this concurrency: the price of the HTTP hop plus one GetItem. */
    const baselineLoad = async (concurrency: number, durationMs: number): Promise<HttpLoadResult> => {
      const load = await httpLoad({
        baseUrl: stack.baseUrl,
        connections: concurrency,
        limit: { durationMs, minimumAmount: MINIMUM_SAMPLES },
        next: () => ({ method: 'GET', path: BASELINE_PATH }),
        expectedStatuses: [200],
      });
      if (load.statuses['200'] === undefined || load.errors > 0)
        throw new Error(`the baseline endpoint failed: ${load.unexpectedSample ?? `${load.errors} socket errors`}`);
      return load;
    };
    /**
     * Adds the header that asks bench/harness/server.ts to record the read shapes (the warm-up's requests only) and, for a GET
     * endpoint, the one that asks it to record the calls under `recordingId` (the twin replays the latest recording).
     */
    const recordingReadShapes = (next: () => HttpRequestSpec, recordingId?: string) => (): HttpRequestSpec => {
      const spec = next();
      return {
        ...spec,
        headers: { ...spec.headers, [RECORD_READ_SHAPES_HEADER]: '1', ...(recordingId === undefined ? {} : { [RECORD_CALLS_HEADER]: recordingId }) },
      };
    };
    /** The twin through the gateway, at this concurrency, as the baseline is loaded. */
    const twinLoad = async (recordingId: string, concurrency: number, durationMs: number): Promise<HttpLoadResult> => {
      const path = `${TWIN_PATH}?recording=${encodeURIComponent(recordingId)}`;
      const load = await httpLoad({
        baseUrl: stack.baseUrl,
        connections: concurrency,
        limit: { durationMs, minimumAmount: MINIMUM_SAMPLES },
        next: () => ({ method: 'GET', path }),
        expectedStatuses: [200],
      });
      if (load.statuses['200'] === undefined || load.errors > 0)
        throw new Error(`the twin endpoint failed: ${load.unexpectedSample ?? `${load.errors} socket errors`}`);
      return load;
    };
    /** Which adjacent floors an endpoint's run needs, from its warm-up: only the kinds of call it makes. */
    const adjacentPlan = (warmup: HttpLoadResult, holdsWorkflows: boolean, intrinsic: IntrinsicWork | undefined, recordingId?: string) => {
      const sample = warmup.startExecutionSample;
      const recorded = warmup.recordedCalls ?? [];
      return {
        // A GET endpoint's twin, when every recording its warm-up reported was of reads only (bench/floors/twin.ts).
        twin:
          recordingId !== undefined && intrinsic === undefined && recorded.length > 0 && recorded.every((calls) => replayable(parseRecordingDescription(calls)))
            ? { recordingId, calls: recorded.at(-1)! }
            : undefined,
        // A transaction is priced as a bare one of the endpoint's own size (as many items and JSON bytes as its warm-up's averaged).
        transactItems: [...TRANSACTION_OPERATIONS].some((operation) => (warmup.calls[operation] ?? 0) > 0)
          ? Math.max(2, Math.round(warmup.itemsPerTransaction ?? 2))
          : undefined,
        transactBytes: warmup.bytesPerTransaction ?? undefined,
        // A shaped read (a Query that returned any item; a BatchGetItem of several items or one large one) is priced
        // as a bare one of the endpoint's shape (the items its warm-up's shaped calls returned, their size and attributes, bucketed).
        reads: SHAPED_READS.flatMap((operation) => {
          const shape = warmup.readShapes?.[operation];
          return shape && shape.callsPerRequest > 0 ? [{ operation, shape: floorShape(shape) }] : [];
        }),
        // A single-item write is priced as a bare conditional UpdateItem (DynamoDB Local's conditional write).
        singleWrite: SINGLE_WRITES.some((operation) => (warmup.calls[operation] ?? 0) > 0),
        // A StartExecution is priced as a bare one: a repeat of a warm-up's STANDARD execution, answered as the
        // first and starting nothing, which holds only while the executions are held (never run against data).
        startExecution:
          (warmup.startExecutions ?? 0) > 0 &&
          holdsWorkflows &&
          sample &&
          stack.workflowsEndpoint &&
          sample.stateMachineArn === localStateMachineArn('completion')
            ? { endpoint: stack.workflowsEndpoint, sample }
            : undefined,
        passwordHash: intrinsic === 'passwordHash',
      };
    };
    type AdjacentPlan = ReturnType<typeof adjacentPlan>;
    /** One side of the adjacent floors: each for the plan's time and at least MINIMUM_SAMPLES samples. */
    const measureAdjacent = async (plan: AdjacentPlan, concurrency: Concurrency, when: 'before' | 'after') => {
      const limit = { durationMs: PLAN.adjacentFloorMs, minimumAmount: MINIMUM_SAMPLES };
      // The twin is the floor its endpoint is judged by: measured closest to the run, last before it and first after it.
      const twin = plan.twin && when === 'after' ? await twinLoad(plan.twin.recordingId, concurrency, PLAN.adjacentFloorMs) : undefined;
      const baseline = await baselineLoad(concurrency, PLAN.adjacentFloorMs);
      const side: AdjacentSide & {
        shapes?: Partial<Record<ShapedRead, FloorShape>>;
        baselineHandlerCpuMs: number | null;
        baselineServerCpuMs: number | null;
        twin?: HttpLoadResult;
      } = {
        baselineP50: baseline.summary.p50,
        baselineHandlerCpuMs: baseline.handlerCpuMs,
        baselineServerCpuMs: baseline.serverCpuMs,
        getItemP50: (await getItemFloor(world.users[0]!.token, concurrency, limit)).summary.p50,
      };
      if (plan.transactItems !== undefined)
        side.transactWriteP50 = (await transactWriteFloor(runId, concurrency, limit, plan.transactItems, plan.transactBytes)).summary.p50;
      for (const { operation, shape } of plan.reads) {
        const measured = await shapedReadFloor(runId, operation, shape, concurrency, limit);
        (side.reads ??= {})[operation] = measured.summary.p50;
        (side.shapes ??= {})[operation] = measured.shape!;
      }
      if (plan.singleWrite) side.singleWriteP50 = (await singleWriteFloor(runId, concurrency, limit)).summary.p50;
      if (plan.startExecution)
        side.startExecutionP50 = (await startExecutionFloor(plan.startExecution.endpoint, plan.startExecution.sample, concurrency, limit)).summary.p50;
      if (plan.passwordHash) side.passwordHashP50 = (await passwordHashFloor(concurrency, { durationMs: PLAN.adjacentHashMs })).summary.p50;
      side.twin = twin ?? (plan.twin ? await twinLoad(plan.twin.recordingId, concurrency, PLAN.adjacentFloorMs) : undefined);
      if (side.twin) side.twinP50 = side.twin.summary.p50;
      return side;
    };
    const combineAdjacent = (
      plan: AdjacentPlan,
      before: Awaited<ReturnType<typeof measureAdjacent>>,
      after: Awaited<ReturnType<typeof measureAdjacent>>,
    ): EndpointRun['adjacentFloor'] => {
      const { shapes, baselineHandlerCpuMs, baselineServerCpuMs, twin: twinBefore, ...beforeSide } = before;
      const { shapes: _shapes, baselineHandlerCpuMs: afterHandlerCpu, baselineServerCpuMs: afterServerCpu, twin: twinAfter, ...afterSide } = after;
      const mean = (first: number | null | undefined, second: number | null | undefined) =>
        first == null || second == null ? undefined : round((first + second) / 2, 3);
      const floor: EndpointRun['adjacentFloor'] = {
        getItemP50: mean(before.getItemP50, after.getItemP50)!,
        baselineP50: mean(before.baselineP50, after.baselineP50)!,
        sides: { before: beforeSide, after: afterSide },
      };
      const handlerCpu = mean(baselineHandlerCpuMs, afterHandlerCpu);
      const serverCpu = mean(baselineServerCpuMs, afterServerCpu);
      if (handlerCpu !== undefined) floor.baselineHandlerCpuMs = handlerCpu;
      if (serverCpu !== undefined) floor.baselineServerCpuMs = serverCpu;
      if (plan.transactItems !== undefined)
        Object.assign(floor, {
          transactWriteP50: mean(before.transactWriteP50, after.transactWriteP50),
          transactItems: plan.transactItems,
          ...(plan.transactBytes === undefined ? {} : { transactBytes: plan.transactBytes }),
        });
      for (const { operation } of plan.reads)
        (floor.reads ??= {})[operation] = { p50: mean(before.reads?.[operation], after.reads?.[operation])!, shape: shapes![operation]! };
      if (plan.singleWrite) floor.singleWriteP50 = mean(before.singleWriteP50, after.singleWriteP50)!;
      if (plan.startExecution) floor.startExecutionP50 = mean(before.startExecutionP50, after.startExecutionP50)!;
      if (plan.passwordHash) floor.passwordHashP50 = mean(before.passwordHashP50, after.passwordHashP50)!;
      if (plan.twin && twinBefore && twinAfter) {
        const twinHandlerCpu = mean(twinBefore.handlerCpuMs, twinAfter.handlerCpuMs);
        const twinServerCpu = mean(twinBefore.serverCpuMs, twinAfter.serverCpuMs);
        const twinUnits = mean(twinBefore.capacityUnits, twinAfter.capacityUnits);
        const twinDynamoMs = mean(twinBefore.dynamoMs, twinAfter.dynamoMs);
        floor.twin = {
          p50: mean(twinBefore.summary.p50, twinAfter.summary.p50)!,
          ...(twinHandlerCpu === undefined ? {} : { handlerCpuMs: twinHandlerCpu }),
          ...(twinServerCpu === undefined ? {} : { serverCpuMs: twinServerCpu }),
          roundTrips: mean(twinBefore.roundTrips, twinAfter.roundTrips) ?? null,
          ...(twinUnits === undefined ? {} : { capacityUnits: twinUnits }),
          ...(twinDynamoMs === undefined ? {} : { dynamoMs: twinDynamoMs }),
          calls: plan.twin.calls,
        };
      }
      return floor;
    };
    const { scenarios, createApi, orderAheadStartBody } = await import('../scenarios/scenarios.ts');
    const { measureHistory } = await import('../report/history.ts');
    const { measureColdStarts } = await import('../cold-start/cold-start.ts');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, table } = await import('#shared/db/client.ts');
    const { keys } = await import('#shared/db/keys.ts');
    /** The order's state as stored (an eventually consistent read would lag). */
    const orderAheadState = async (uuid: string): Promise<unknown> =>
      (
        await db().send(
          new GetCommand({
            TableName: table(),
            Key: keys.orderAheadOrder(uuid),
            ProjectionExpression: '#state',
            ExpressionAttributeNames: { '#state': 'state' },
            ConsistentRead: true,
          }),
        )
      ).Item?.state;
    const { writeReports, terminalTable, overheadTarget } = await import('../report/report.ts');

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
    await baselineLoad(16, PLAN.adjacentFloorMs);
    progress('floor (before the endpoints): bare GetItem and TransactWriteItems');
    const floorStart = await measureFloor();

    const endpointLoads: { row: EndpointRow; loads: Map<Concurrency, MeasuredRun> }[] = [];
    for (const scenario of scenarios.filter((candidate) => selected(candidate.id))) {
      const route = `${scenario.route.method} ${scenario.route.path}`;
      const row: EndpointRow = {
        id: scenario.id,
        title: scenario.title,
        route,
        available: false,
        minimum: scenario.minimum,
        ...(scenario.intrinsic ? { intrinsic: scenario.intrinsic } : {}),
        runs: [],
      };
      const unavailable = (scenario.needs ?? []).filter((piece) => world[piece] === undefined).map((piece) => `seed did not create ${piece}`)[0];
      if (unavailable) {
        row.note = `not available: ${unavailable}`;
        progress(`${scenario.id}: ${row.note}`);
        endpointLoads.push({ row, loads: new Map() });
        continue;
      }
      const loads = new Map<Concurrency, MeasuredRun>();
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
          // Only the warm-up's responses carry the read shapes (sizing returned items costs the server CPU that
          // the measured requests must not pay; bench/harness/server.ts): the run is priced at the warm-up's shapes.
          // A GET endpoint's warm-up also records its calls, for its twin (bench/floors/twin.ts).
          const recordingId = scenario.route.method === 'GET' ? `${scenario.id}:${concurrency}` : undefined;
          const warmup = await httpLoad({
            baseUrl: stack.baseUrl,
            connections: concurrency,
            limit: { amount: warmupFor(concurrency) },
            next: recordingReadShapes(next, recordingId),
            expectedStatuses: scenario.expectedStatuses,
            onResponse,
          });
          // The floors again, right next to this run (the machine's load drifts over minutes), once before it
          // and once after it: each is priced at the mean of its two p50s, so a drift during the run cancels.
          const plan = adjacentPlan(warmup, scenario.holdsWorkflows === true, scenario.intrinsic, recordingId);
          let runNext = next;
          /** One measurement: the endpoint's run between its adjacent floors. */
          const measureOnce = async () => {
            const before = await measureAdjacent(plan, concurrency, 'before');
            const load = await httpLoad({
              baseUrl: stack.baseUrl,
              connections: concurrency,
              limit: scenario.consumable ? { amount: PLAN.consumable[concurrency] } : { durationMs: PLAN.durationMs, minimumAmount: MINIMUM_SAMPLES },
              next: runNext,
              expectedStatuses: scenario.expectedStatuses,
              onResponse,
            });
            const after = await measureAdjacent(plan, concurrency, 'after');
            if (warmup.readShapes) load.readShapes = warmup.readShapes;
            const adjacentFloor = combineAdjacent(plan, before, after);
            return { load, adjacentFloor, figures: trialFigures(load, adjacentFloor, scenario.intrinsic) };
          };
          // A ratio over its target is measured twice more, right away, and judged by the median (issue 36).
          const repeated = await measureWithRepeats({
            measure: measureOnce,
            ratio: (measurement) => measurement.figures.overheadRatio,
            target: overheadTarget(row),
            // The repeats of a scenario that uses up its data get data of their own (under a run id of their own,
            // so names do not collide with the first preparation's); the first preparation is sized for one run each.
            ...(scenario.consumable
              ? {
                  prepareRepeats: async () => {
                    const repeatCount = REPEATS_ON_MISS * (PLAN.consumable[concurrency] + concurrency + 2);
                    progress(`${scenario.id} c=${concurrency}: ratio over its target; preparing ${repeatCount} requests' worth of data to measure it again`);
                    runNext = await scenario.prepare({ world, api, runId: `${runId}-repeat-${concurrency}`, count: repeatCount, quick });
                  },
                }
              : {}),
          });
          const { load, adjacentFloor } = repeated.measurements[0]!;
          loads.set(concurrency, {
            load,
            adjacentFloor,
            trials: repeated.measurements.map((measurement) => measurement.figures),
            ...(repeated.notRepeatable ? { notRepeatable: repeated.notRepeatable } : {}),
          });
          if (repeated.measurements.length > 1)
            progress(
              `${scenario.id} c=${concurrency}: ratios ${repeated.measurements.map((measurement) => measurement.figures.overheadRatio).join(', ')} (target ${overheadTarget(row)}): median ${repeated.ratio}`,
            );
          if (repeated.notRepeatable) progress(`${scenario.id} c=${concurrency}: ${repeated.notRepeatable}`);
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
          if (started.status !== 200 || typeof orderUrl !== 'string' || typeof uuid !== 'string')
            throw new Error(`start answered ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
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
        orderAhead.runs.push({
          concurrency,
          summary: run.summary,
          errors: run.errors,
          firstError: run.firstError,
          pollsPerFlow: round(polls / Math.max(1, flows), 1),
          ...stats,
          startP50Ms: round(median(startLatencies)),
          pollP50Ms: round(median(pollLatencies)),
        });
        progress(
          `order ahead start -> 200 c=${concurrency}: p50 ${run.summary.p50} ms, p99 ${run.summary.p99} ms, ${round(polls / Math.max(1, flows), 1)} polls/flow${run.errors ? `; ${run.errors} errors: ${run.firstError}` : ''}`,
        );
        if (run.summary.count > 0) orderAhead.available = true;
        else orderAhead.note = `failed: ${run.firstError}`;
      }
    }

    progress('floor (after the endpoints)');
    const floorEnd = await measureFloor();
    results.floor = { start: floorStart, end: floorEnd };
    results.endpoints = endpointLoads.map(({ row, loads }) => ({
      ...row,
      runs: [...loads].map(([concurrency, measured]) => endpointRun(concurrency, measured)),
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
    progress(
      `done in ${complete.durationSeconds} s: ${only ? '' : 'docs/benchmarks.md, docs/cost.md, '}bench/results/${resultsName}.json (server log: ${stack.serverLog})`,
    );
  } finally {
    await stack.stop();
  }
}

/** Rounds of `--cold-start --sdk-comparison` (paired runs: the machine is shared and noisy). */
const SDK_COMPARISON_RUNS = quick ? 3 : 15;

/** `--cold-start`: the cold-start part alone (about 2 minutes full, 20 s quick), for changes to what bundles carry. */
async function coldStartOnly(): Promise<void> {
  progress('starting DynamoDB Local (in memory) and a fresh table for the cold-start probes');
  const stack = await startBenchStack();
  try {
    const { seedWorld } = await import('./seed.ts');
    const { measureColdStarts } = await import('../cold-start/cold-start.ts');
    const world = await seedWorld(randomUUID().slice(0, 8));
    const sdkComparison = process.argv.includes('--sdk-comparison');
    const runs = sdkComparison ? SDK_COMPARISON_RUNS : PLAN.coldStartRuns;
    const coldStarts = await measureColdStarts({ world, runs, environment: stack.tableEnvironment, progress });
    const resultsDirectory = join(BENCH_DIRECTORY, 'results');
    mkdirSync(resultsDirectory, { recursive: true });
    const machine = { ...machineFacts(), loadAverageAtEnd: loadavg().map((value) => round(value, 2)) };
    const file = sdkComparison ? 'sdk-comparison.json' : 'cold-start.json';
    const command = `npm run bench -- --cold-start${sdkComparison ? ' --sdk-comparison' : ''}${quick ? ' --quick' : ''}`;
    writeFileSync(join(resultsDirectory, file), `${JSON.stringify({ command, date: new Date().toISOString(), runs, machine, coldStarts }, null, 2)}\n`);
    const rows = coldStarts.map((row) =>
      [
        row.handler.padEnd(40),
        (row.bundleBytes === undefined ? '-' : (row.bundleBytes / 1024).toFixed(1)).padStart(7),
        String(row.importMs ?? '-').padStart(7),
        String(row.firstRequestMs ?? '-').padStart(7),
        String(row.totalMs ?? '-').padStart(7),
        String(row.totalCpuMs ?? '-').padStart(7),
        String(row.roundTrips ?? '-').padStart(3),
        String(row.twinTotalMs ?? '-').padStart(7),
        String(row.twinRatio ?? '-').padStart(5),
        String(row.twinCpuRatio ?? '-').padStart(5),
        String(row.twinRoundTrips ?? '-').padStart(4),
        row.sdkBundledDeltaMs
          ? `vs SDK external: import ${row.sdkBundledDeltaMs.import}, first request ${row.sdkBundledDeltaMs.firstRequest}, total ${row.sdkBundledDeltaMs.total}, CPU ${row.sdkBundledDeltaMs.totalCpu} ms; SDK ${((row.sdkBytes ?? 0) / 1024).toFixed(1)} KiB`
          : '',
        row.note ?? '',
      ].join('  '),
    );
    const header = [
      'function'.padEnd(40),
      'KiB'.padStart(7),
      'import'.padStart(7),
      'first'.padStart(7),
      'total'.padStart(7),
      'cpu'.padStart(7),
      'rt'.padStart(3),
      'twin'.padStart(7),
      'x twin'.padStart(5),
      'x cpu'.padStart(5),
      'twin rt'.padStart(4),
    ];
    process.stdout.write(`\n${header.join('  ')}\n${rows.join('\n')}\n`);
    progress(`done: bench/results/${file}`);
  } finally {
    await stack.stop();
  }
}

/** `--report-only`: re-render docs/benchmarks.md and docs/cost.md from the saved results (e.g. after editing bench/notes.md). */
async function reportOnly(): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { writeReports, terminalTable } = await import('../report/report.ts');
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

/**
 * The bench's results, as bench/harness/run.ts measures them, bench/results/<mode>.json keeps them and
 * bench/report/report.ts renders them: one module, so the harness, the floors and the report share them
 * without importing each other.
 */
import type { HttpLoadResult, LatencySummary } from './harness/measure.ts';
import type { FloorResult } from './floors/floor.ts';
import type { TwinFloor } from './floors/twin.ts';
import type { FloorShape, ShapedRead } from './floors/read-shape.ts';
import type { ColdStartRow } from './cold-start/cold-start.ts';
import type { HistoryResult } from './report/history.ts';
import type { IntrinsicWork, MinimumRoundTrips } from './scenarios/scenarios.ts';

export type Concurrency = 1 | 16;

/** Which floor an endpoint's ratio used: its twin's p50 or the priced floor (bench/floors/call-prices.ts). */
export type FloorKind = 'twin' | 'priced';

/** How long / how much each measurement runs (bench/harness/run.ts PLAN: full or quick). */
export interface BenchPlan {
  durationMs: number;
  warmupRequests: number;
  floorMs: number;
  adjacentFloorMs: number;
  adjacentHashMs: number;
  jvmWarmupMs: number;
  consumable: Record<Concurrency, number>;
  orderAheadFlows: Record<Concurrency, number>;
  coldStartRuns: number;
  historyRecords: number;
}

export interface EndpointRun {
  concurrency: Concurrency;
  load: HttpLoadResult;
  /**
   * Floor p50s measured right before this run, at this concurrency (what its overhead ratio uses); the
   * transaction floor is a bare TransactWriteItems of `transactItems` items weighing `transactBytes` JSON bytes (the
   * endpoint's own size: its entries padded to as many bytes; absent in results from before it existed).
   */
  adjacentFloor: {
    getItemP50: number;
    /** Absent when the endpoint's warm-up made no TransactWriteItems / BatchWriteItem (nothing to price at it). */
    transactWriteP50?: number;
    transactItems?: number;
    transactBytes?: number;
    /**
     * p50 of the baseline endpoint (bench/harness/baseline-handler.ts: one GetItem, no framework) through the same
     * gateway and HTTP client: the local HTTP hop plus one GetItem. Absent in results from before it existed.
     */
    baselineP50?: number;
    /**
     * The baseline endpoint's CPU per request: its handler's (X-Handler-CPU-Ms, median; meaningful at c=1 only)
     * and the bench server's (gateway + handler). At c=16 the server is CPU-bound, so an endpoint's ratio there is
     * about its server CPU per request over this one. Absent in results from before they were recorded.
     */
    baselineHandlerCpuMs?: number;
    baselineServerCpuMs?: number;
    /**
     * Each floor's p50 on either side of the run (measured before it and again after it; the figures above are
     * their means, so a drift of the machine's load during the run cancels). Absent in results from before.
     */
    sides?: { before: AdjacentSide; after: AdjacentSide };
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
    /**
     * The endpoint's twin (bench/floors/twin.ts: its warm-up's recorded calls replayed through the bench gateway), for GET
     * endpoints whose recorded calls were all reads; absent otherwise and in results from before it existed.
     */
    twin?: TwinFloor;
  };
  /**
   * The request's floor at this concurrency: the baseline endpoint's p50 (HTTP hop + one GetItem) plus its
   * other DynamoDB calls, each at the floor p50 of its kind, plus any intrinsic work (a password hash).
   */
  floorMs: number | null;
  overheadRatio: number | null;
  /** Which floor the ratio used: the twin's p50 (read endpoints with a faithful twin) or the priced floor. Absent in older results (priced). */
  floorKind?: FloorKind;
  /** The priced floor (bench/floors/call-prices.ts floorFor) and the ratio to it, kept beside a twin floor for comparison with earlier runs. */
  pricedFloorMs?: number | null;
  pricedOverheadRatio?: number | null;
  /**
   * Every measurement of this run when its first ratio missed its target and it was measured twice more (the endpoint
   * run and its adjacent floors before and after, each exactly as the first; bench/harness/repeat.ts, issue 36). Then
   * `overheadRatio` (and `pricedOverheadRatio`) are the medians of the trials' and the verdict uses them; `load`,
   * `adjacentFloor` and `floorMs` stay the first measurement's (its round trips keep their own verdict: counts, not
   * times). Absent when the first met its target, and in results from before the rule.
   */
  trials?: EndpointTrial[];
  /** Set when the first ratio missed but the repeats could not be prepared: the single measurement stands. */
  notRepeatable?: string;
}

/** One measurement of an endpoint at one concurrency (its repeats: EndpointRun.trials). */
export interface EndpointTrial {
  p50: number;
  count: number;
  floorMs: number | null;
  overheadRatio: number | null;
  floorKind?: FloorKind;
  pricedFloorMs?: number | null;
  pricedOverheadRatio?: number | null;
  /** The baseline endpoint's p50 next to this measurement (mean of its two sides), to tell a burst of the machine. */
  baselineP50?: number;
}

/** The p50s of one side (before or after an endpoint's run) of its adjacent floors. */
export interface AdjacentSide {
  getItemP50: number;
  baselineP50: number;
  transactWriteP50?: number;
  reads?: Partial<Record<ShapedRead, number>>;
  singleWriteP50?: number;
  startExecutionP50?: number;
  passwordHashP50?: number;
  twinP50?: number;
}

export interface EndpointRow {
  id: string;
  title: string;
  route: string;
  available: boolean;
  note?: string;
  minimum: MinimumRoundTrips;
  /** Work the endpoint must do by design, priced into its floor (bench/scenarios/scenarios.ts). */
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
  machine: {
    cpuModel: string;
    cores: number;
    memoryGb: number;
    freeMemoryGbAtStart: number;
    node: string;
    platform: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  plan: BenchPlan;
  throttling: 'disabled (createGateway({ throttling: false }))';
  seedProblems: Record<string, string>;
  floor: { start: FloorResult[]; end: FloorResult[] };
  endpoints: EndpointRow[];
  orderAhead: OrderAheadRow;
  history: HistoryResult | { unavailable: string };
  coldStarts: ColdStartRow[];
}

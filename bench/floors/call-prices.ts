/**
 * Calls priced at a bare call of their own kind rather than at the GetItem floor (floorFor below):
 * single-item writes at a bare conditional UpdateItem, Step Functions StartExecution calls at a bare
 * StartExecution to the same service. Both measured next to the endpoint's run, only when its warm-up
 * made such calls; an endpoint without them keeps exactly the floor it had.
 */
import type { HttpLoadResult } from '../harness/measure.ts';
import { shapedReadAdjustment } from './read-shape.ts';
import type { EndpointRun, FloorKind } from '../types.ts';
import type { IntrinsicWork } from '../scenarios/scenarios.ts';

/** The single-item writes: a conditional write costs DynamoDB Local clearly more than a GetItem. */
export const SINGLE_WRITES = ['PutItem', 'UpdateItem', 'DeleteItem'] as const;

export interface CallFloors {
  getItemP50: number;
  /** p50 of a bare conditional UpdateItem (when the warm-up made single-item writes). */
  singleWriteP50?: number;
  /** p50 of a bare StartExecution (when the warm-up started executions). */
  startExecutionP50?: number;
}

/**
 * What pricing these calls at their own floors adds to a floor that priced every DynamoDB call at the
 * GetItem floor and StartExecution at nothing: each single-item write at the UpdateItem floor instead of
 * a GetItem's (never below it: a conditional write does at least a read's work, as a Query does; see
 * bench/floors/read-shape.ts shapedReadAdjustment), each StartExecution at the StartExecution floor. Zero without
 * such calls or without those floors (results from before they existed).
 */
export function callPriceAdjustment(load: { calls: Record<string, number>; startExecutions?: number }, floor: CallFloors): number {
  const writes = SINGLE_WRITES.reduce((sum, operation) => sum + (load.calls[operation] ?? 0), 0);
  const writeExtra = floor.singleWriteP50 === undefined ? 0 : writes * Math.max(0, floor.singleWriteP50 - floor.getItemP50);
  const starts = floor.startExecutionP50 === undefined ? 0 : (load.startExecutions ?? 0) * floor.startExecutionP50;
  return writeExtra + starts;
}

export const TRANSACTION_OPERATIONS = new Set(['TransactWriteItems', 'BatchWriteItem']);

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
export function floorFor(
  load: Pick<HttpLoadResult, 'calls' | 'roundTrips' | 'readShapes' | 'startExecutions'>,
  floor: EndpointRun['adjacentFloor'],
  intrinsic?: IntrinsicWork,
): number | null {
  const entries = Object.entries(load.calls);
  const calls =
    entries.length === 0
      ? load.roundTrips === null
        ? null
        : load.roundTrips * floor.getItemP50
      : entries.reduce(
          (sum, [operation, count]) => sum + count * (TRANSACTION_OPERATIONS.has(operation) ? (floor.transactWriteP50 ?? Number.NaN) : floor.getItemP50),
          0,
        ) +
        shapedReadAdjustment(load, floor) +
        callPriceAdjustment(load, floor);
  // NaN: a call whose floor was not measured (a transaction the warm-up never made): no ratio rather than a wrong one.
  if (calls === null || Number.isNaN(calls)) return null;
  const hop = floor.baselineP50 === undefined ? 0 : floor.baselineP50 - floor.getItemP50;
  const work = intrinsic === 'passwordHash' ? (floor.passwordHashP50 ?? 0) : 0;
  return calls + hop + work;
}

/**
 * The floor an endpoint's overhead ratio divides by, and today's priced floor (floorFor) beside it, always.
 * A GET endpoint whose recorded calls were all reads has a twin (bench/floors/twin.ts) measured next to its run: its
 * own round trips, with its own items, made through the same gateway, process, client and instrumentation,
 * so endpoint minus twin is exactly the handler's own work. Its p50 is the floor when the twin made as many
 * round trips as the endpoint's requests did on average (a replay of one request stands for all of them only
 * then) and the endpoint has no intrinsic work to price; otherwise the priced floor is.
 */
export function overheadFloor(
  load: Pick<HttpLoadResult, 'calls' | 'roundTrips' | 'readShapes' | 'startExecutions'>,
  floor: EndpointRun['adjacentFloor'],
  intrinsic?: IntrinsicWork,
): { floorMs: number | null; pricedFloorMs: number | null; kind: FloorKind } {
  const priced = floorFor(load, floor, intrinsic);
  const twin = floor.twin;
  const sameRoundTrips = twin !== undefined && twin.roundTrips !== null && load.roundTrips !== null && Math.abs(twin.roundTrips - load.roundTrips) < 0.005;
  if (twin && sameRoundTrips && intrinsic === undefined) return { floorMs: twin.p50, pricedFloorMs: priced, kind: 'twin' };
  return { floorMs: priced, pricedFloorMs: priced, kind: 'priced' };
}

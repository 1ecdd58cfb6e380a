/**
 * Calls priced at a bare call of their own kind rather than at the GetItem floor (bench/run.ts floorFor):
 * single-item writes at a bare conditional UpdateItem, Step Functions StartExecution calls at a bare
 * StartExecution to the same service. Both measured next to the endpoint's run, only when its warm-up
 * made such calls; an endpoint without them keeps exactly the floor it had.
 */

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
 * a GetItem's (never below it), each StartExecution at the StartExecution floor. Zero without such calls
 * or without those floors (results from before they existed).
 */
export function callPriceAdjustment(load: { calls: Record<string, number>; startExecutions?: number }, floor: CallFloors): number {
  const writes = SINGLE_WRITES.reduce((sum, operation) => sum + (load.calls[operation] ?? 0), 0);
  const writeExtra = floor.singleWriteP50 === undefined ? 0 : writes * Math.max(0, floor.singleWriteP50 - floor.getItemP50);
  const starts = floor.startExecutionP50 === undefined ? 0 : (load.startExecutions ?? 0) * floor.startExecutionP50;
  return writeExtra + starts;
}

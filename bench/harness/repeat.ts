/**
 * The repeat rule of the warm overhead ratios (issue 36): a measurement whose ratio misses its target is measured
 * twice more right away, and the verdict uses the median of the three ratios. One measurement cannot tell a burst of
 * the shared machine from the handler's work; a real regression misses in at least two of three and still fails.
 * No imports from the stack, so its decision is unit-tested with fake measurements.
 */
import { round, type HttpLoadResult } from './measure.ts';
import type { Concurrency, EndpointRun, EndpointTrial } from '../types.ts';

/** How many more measurements follow one whose ratio missed its target. */
export const REPEATS_ON_MISS = 2;

export interface RepeatedMeasurement<T> {
  /** Every measurement in order: the first, then the repeats (none when the first met its target or had no ratio). */
  measurements: T[];
  /** The verdict's ratio: the first's when it was not repeated, else the median of all of them. */
  ratio: number | null;
  /** Why a missed ratio was not measured again (its preparation failed): its single measurement stands. */
  notRepeatable?: string;
}

/**
 * The median of the ratios that exist (the mean of the middle two for an even count), to 2 decimals as every ratio;
 * a measurement without a ratio (its floor could not be priced) cannot vote. Null when none has one.
 */
export function medianRatio(ratios: readonly (number | null | undefined)[]): number | null {
  const sorted = ratios.filter((ratio): ratio is number => ratio != null).sort((first, second) => first - second);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2, 2);
}

/**
 * Measures once and, when the ratio is over `target`, `REPEATS_ON_MISS` times more, each exactly as the first.
 * `prepareRepeats` (scenarios that use up prepared data) runs once before the first repeat; when it throws, the
 * first measurement stands alone, marked not repeatable. A measurement that throws fails the whole, as before.
 */
export async function measureWithRepeats<T>(options: {
  measure: () => Promise<T>;
  ratio: (measurement: T) => number | null;
  target: number;
  prepareRepeats?: () => Promise<void>;
}): Promise<RepeatedMeasurement<T>> {
  const first = await options.measure();
  const firstRatio = options.ratio(first);
  if (firstRatio === null || firstRatio <= options.target) return { measurements: [first], ratio: firstRatio };
  if (options.prepareRepeats) {
    try {
      await options.prepareRepeats();
    } catch (error) {
      return { measurements: [first], ratio: firstRatio, notRepeatable: `not repeatable: ${(error as Error).message.slice(0, 200)}` };
    }
  }
  const measurements = [first];
  for (let repeat = 0; repeat < REPEATS_ON_MISS; repeat += 1) measurements.push(await options.measure());
  return { measurements, ratio: medianRatio(measurements.map(options.ratio)) };
}

/** An endpoint's run at one concurrency as the results keep it: its first measurement, and its repeats' figures when it had any. */
export interface MeasuredRun {
  load: HttpLoadResult;
  adjacentFloor: EndpointRun['adjacentFloor'];
  trials: EndpointTrial[];
  notRepeatable?: string;
}

/**
 * The results' run: the first measurement's figures, except that a repeated run's ratios are the medians of its
 * trials' (what its verdict reads), with every trial kept.
 */
export function endpointRun(concurrency: Concurrency, { load, adjacentFloor, trials, notRepeatable }: MeasuredRun): EndpointRun {
  const { p50: _p50, count: _count, baselineP50: _baselineP50, ...first } = trials[0]!;
  if (trials.length === 1) return { concurrency, load, adjacentFloor, ...first, ...(notRepeatable ? { notRepeatable } : {}) };
  return {
    concurrency,
    load,
    adjacentFloor,
    ...first,
    overheadRatio: medianRatio(trials.map((trial) => trial.overheadRatio)),
    ...(first.floorKind === 'twin' ? { pricedOverheadRatio: medianRatio(trials.map((trial) => trial.pricedOverheadRatio)) } : {}),
    trials,
  };
}

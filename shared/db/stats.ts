import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB round trips and consumed capacity per request, for the benchmark (DYNAMODB_STATS=1).
 * An AsyncLocalStorage scope per request attributes calls correctly under concurrency.
 */
export interface RequestDbStats {
  roundTrips: number;
  readCapacityUnits: number;
  writeCapacityUnits: number;
  capacityUnits: number;
}

const scope = new AsyncLocalStorage<RequestDbStats>();

export function withDbStats<T>(run: () => Promise<T>): Promise<{ result: T; stats: RequestDbStats }> {
  const stats: RequestDbStats = { roundTrips: 0, readCapacityUnits: 0, writeCapacityUnits: 0, capacityUnits: 0 };
  return scope.run(stats, async () => ({ result: await run(), stats }));
}

type Capacity = { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };

function addCapacity(stats: RequestDbStats, consumed: Capacity | Capacity[] | undefined): void {
  for (const capacity of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
    stats.capacityUnits += capacity.CapacityUnits ?? 0;
    stats.readCapacityUnits += capacity.ReadCapacityUnits ?? 0;
    stats.writeCapacityUnits += capacity.WriteCapacityUnits ?? 0;
  }
}

/** Counts each call as one round trip and asks DynamoDB for the capacity it consumed. */
export function instrumentClient(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const stats = scope.getStore();
      if (!stats) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity ??= 'TOTAL';
      stats.roundTrips += 1;
      const result = await next(args);
      addCapacity(stats, (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
      return result;
    },
    { step: 'initialize', name: 'requestDbStats' },
  );
}

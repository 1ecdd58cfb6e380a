/**
 * The bench's transaction floor (docs/benchmarks.md "How it was measured", bench/floors/floor.ts): a transaction is
 * priced as a bare one of the endpoint's own size, as many items and as many JSON bytes (its entries padded to what
 * the endpoint's items weigh), and that padded transaction commits in DynamoDB Local.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/db/client.ts';
import { instrumentClient } from '#shared/db/stats.ts';
import { floorTransaction, transactionBytes, transactionEntryPaddings, transactWriteFloor } from '../../bench/floors/floor.ts';
import { useTestApi } from '../support/api.ts';

useTestApi();

// The bench server's client asks DynamoDB for the capacity each call consumed (DYNAMODB_STATS=1); this process's does not.
beforeAll(() => instrumentClient(db()));

const unpadded = (entries: number) =>
  floorTransaction(
    'bench-floor:test:0',
    0,
    Array.from({ length: entries }, () => 0),
  );

describe('bench transaction floor: its entries padded to the endpoint transaction bytes', () => {
  it('pads the entries so that the transaction weighs the bytes asked for, spread over them', () => {
    const bare = transactionBytes(unpadded(4));
    for (const target of [bare + 4000, bare + 4001, bare + 4003, bare + 9876]) {
      const paddings = transactionEntryPaddings(unpadded(4), target);
      expect(paddings).toHaveLength(4);
      expect(Math.max(...paddings) - Math.min(...paddings)).toBeLessThanOrEqual(1);
      expect(transactionBytes(floorTransaction('bench-floor:test:0', 0, paddings))).toBe(target);
    }
  });

  it('pads nothing without a target or for a target the bare transaction already reaches', () => {
    const bare = transactionBytes(unpadded(2));
    expect(transactionEntryPaddings(unpadded(2))).toEqual([0, 0]);
    expect(transactionEntryPaddings(unpadded(2), bare)).toEqual([0, 0]);
    expect(transactionEntryPaddings(unpadded(2), bare - 100)).toEqual([0, 0]);
  });

  it('commits the padded transaction in DynamoDB Local, which bills it more than the bare one', async () => {
    const bare = await transactWriteFloor('floor-test', 2, { amount: 4 }, 5);
    const sized = await transactWriteFloor('floor-test', 2, { amount: 4 }, 5, transactionBytes(unpadded(4)) + 6000);
    expect(bare.errors).toBe(0);
    expect(sized.errors).toBe(0);
    expect(sized.capacityUnits).toBeGreaterThan(bare.capacityUnits);
  });
});

/**
 * The bench's floor (docs/benchmarks.md "How it was measured"): a Query that returned any item, or a BatchGetItem
 * of two items or more or one large item, is priced as a bare read of the endpoint's own shape (never below the
 * GetItem floor), a single-item write at a bare conditional UpdateItem, the hop at the baseline endpoint's p50
 * minus a GetItem's, and endpoints without such calls keep the floor they had.
 */
import { describe, expect, it } from 'vitest';
import { callPriceAdjustment, floorFor } from '../../bench/floors/call-prices.ts';
import { withBaseline } from '../../bench/report/report.ts';
import { closedLoop } from '../../bench/harness/measure.ts';
import {
  addReadShape,
  bucket,
  LARGE_ITEM_BYTES,
  floorShape,
  formatReadShapes,
  itemsPerCall,
  parseReadShapes,
  returnedItems,
  shapedReadAdjustment,
  type ReadShapeTotals,
} from '../../bench/floors/read-shape.ts';

const empty = (): ReadShapeTotals => ({ calls: 0, items: 0, bytes: 0, attributes: 0, parallel: 0 });

describe('bench read floor', () => {
  it('records the BatchGetItem calls that returned two items or more, with their JSON size and attributes', () => {
    const totals = empty();
    addReadShape(totals, []);
    addReadShape(totals, [{ pk: 'a', sk: 'b' }]);
    expect(totals.calls).toBe(0);
    addReadShape(totals, [
      { pk: 'a', sk: '1', tags: new Set(['x']) },
      { pk: 'a', sk: '2' },
    ]);
    expect(totals).toMatchObject({ calls: 1, items: 2, attributes: 5 });
    expect(totals.bytes).toBe(JSON.stringify({ pk: 'a', sk: '1', tags: ['x'] }).length + JSON.stringify({ pk: 'a', sk: '2' }).length);
  });

  it('records a Query that returned any item, one small item included (a Query is not a GetItem), never an empty one', () => {
    const totals = empty();
    addReadShape(totals, [], 'Query');
    expect(totals.calls).toBe(0);
    addReadShape(totals, [{ pk: 'a', sk: 'b' }], 'Query');
    expect(totals).toEqual({ calls: 1, items: 1, bytes: JSON.stringify({ pk: 'a', sk: 'b' }).length, attributes: 2, parallel: 0 });
  });

  it('records a BatchGetItem that returned one large item, never one small item', () => {
    const totals = empty();
    addReadShape(totals, [{ pk: 'a', sk: 'b', body: 'x'.repeat(LARGE_ITEM_BYTES - 100) }]);
    expect(totals.calls).toBe(0);
    const large = { pk: 'a', sk: 'b', body: 'x'.repeat(LARGE_ITEM_BYTES) };
    addReadShape(totals, [large]);
    expect(totals).toEqual({ calls: 1, items: 1, bytes: JSON.stringify(large).length, attributes: 3, parallel: 0 });
    // Priced at a bare read of one item of its size.
    expect(floorShape({ itemsPerCall: 1, bytesPerItem: 6000, attributesPerItem: 9, parallelCalls: 1 })).toMatchObject({ items: 1, bytesPerItem: 5793 });
  });

  it("prices a Query floor partition larger than a page at the page DynamoDB answers, as each of the handler's pages is a call", () => {
    const page = Array.from({ length: 1979 }, (_, index) => ({ pk: 'floor', sk: String(index) }));
    // The ledger export's floor of 2048 items (its shape rounded up) answered its first 1 MB: 1979 items and where to go on.
    expect(itemsPerCall('Query', { Items: page, LastEvaluatedKey: { pk: 'floor', sk: '1978' } }, 2048)).toBe(1979);
    expect(itemsPerCall('Query', { Items: page.slice(0, 12) }, 12)).toBe(12);
    // Fewer items without a page boundary are missing items, as is a short BatchGetItem: never priced.
    expect(() => itemsPerCall('Query', { Items: page.slice(0, 11) }, 12)).toThrow('returned 11 of 12 items');
    expect(() => itemsPerCall('BatchGetItem', { Responses: { table: page.slice(0, 99) } }, 100)).toThrow('returned 99 of 100 items');
  });

  it("reads a BatchGetItem's items across its tables and a Query's Items", () => {
    expect(returnedItems('BatchGetItem', { Responses: { one: [{ a: 1 }], two: [{ b: 2 }, { c: 3 }] } })).toHaveLength(3);
    expect(returnedItems('Query', { Items: [{ a: 1 }, { b: 2 }] })).toHaveLength(2);
    expect(returnedItems('Query', {})).toEqual([]);
  });

  it('carries the shapes through the header, the parallel calls capped at the multi-item calls', () => {
    const header = formatReadShapes({ Query: { calls: 8, items: 34, bytes: 17_000, attributes: 68, parallel: 9 }, BatchGetItem: empty() });
    expect(header).toBe('Query=8:34:17000:68:9');
    expect(parseReadShapes(header)).toEqual({ Query: { calls: 8, items: 34, bytes: 17_000, attributes: 68, parallel: 8 } });
    expect(parseReadShapes('')).toEqual({});
  });

  it('rounds shapes to a few buckets, each within ~9% of the measured figure (or half an item)', () => {
    for (const value of [3, 7, 11, 25, 300, 659, 1148, 4000]) expect(Math.abs(bucket(value, 2) - value) / value).toBeLessThan(0.1);
    expect(bucket(2.4, 2)).toBe(2);
    expect(floorShape({ itemsPerCall: 11, bytesPerItem: 1148, attributesPerItem: 43, parallelCalls: 1 })).toEqual({
      items: 11,
      bytesPerItem: 1218,
      attributesPerItem: 45,
      parallelCalls: 1,
    });
    // Never fewer attributes than the floor item's keys and a value; one item when the calls returned one large item each.
    expect(floorShape({ itemsPerCall: 1.2, bytesPerItem: 10, attributesPerItem: 2, parallelCalls: 0.4 })).toEqual({
      items: 1,
      bytesPerItem: 64,
      attributesPerItem: 3,
      parallelCalls: 1,
    });
    expect(floorShape({ itemsPerCall: 2.4, bytesPerItem: 100, attributesPerItem: 5, parallelCalls: 1 }).items).toBe(2);
  });

  it('prices multi-item calls at the shaped floor and leaves every other floor unchanged', () => {
    const shape = { items: 11, bytesPerItem: 724, attributesPerItem: 23, parallelCalls: 1 };
    const floor = { getItemP50: 2, reads: { Query: { p50: 4.5, shape } } };
    // One Query of 11 items per request: priced at 4.5 instead of the GetItem's 2.
    expect(
      shapedReadAdjustment(
        {
          calls: { GetItem: 1, Query: 1 },
          readShapes: { Query: { callsPerRequest: 1, itemsPerCall: 11, bytesPerItem: 700, attributesPerItem: 22, parallelCalls: 1 } },
        },
        floor,
      ),
    ).toBeCloseTo(2.5);
    // No multi-item read in the run (its Queries returned 0 or 1 item), or no shaped floor: nothing changes.
    expect(shapedReadAdjustment({ calls: { GetItem: 1, Query: 1 } }, floor)).toBe(0);
    expect(
      shapedReadAdjustment(
        {
          calls: { GetItem: 1, Query: 1 },
          readShapes: { Query: { callsPerRequest: 1, itemsPerCall: 11, bytesPerItem: 700, attributesPerItem: 22, parallelCalls: 1 } },
        },
        { getItemP50: 2 },
      ),
    ).toBe(0);
    // A shaped floor measured below the GetItem floor (noise: a Query does at least a GetItem's work) never prices the call below a GetItem.
    expect(
      shapedReadAdjustment(
        { calls: { Query: 1 }, readShapes: { Query: { callsPerRequest: 1, itemsPerCall: 2, bytesPerItem: 100, attributesPerItem: 5, parallelCalls: 1 } } },
        { getItemP50: 2, reads: { Query: { p50: 1.5, shape } } },
      ),
    ).toBe(0);
  });

  it('prices reads issued together as one group at the p50 of as many bare reads issued together', () => {
    const shape = { items: 4, bytesPerItem: 512, attributesPerItem: 3, parallelCalls: 8 };
    const load = {
      calls: { GetItem: 1, Query: 9 },
      readShapes: { Query: { callsPerRequest: 8, itemsPerCall: 4.25, bytesPerItem: 521, attributesPerItem: 2, parallelCalls: 8 } },
    };
    // Eight calls priced as one group of eight at 6 ms, not as eight GetItems at 2 ms each.
    expect(shapedReadAdjustment(load, { getItemP50: 2, reads: { Query: { p50: 6, shape } } })).toBeCloseTo(6 - 8 * 2);
  });

  it('prices single-item writes at the UpdateItem floor and StartExecution at its own, leaving other floors unchanged', () => {
    const floors = { getItemP50: 2, singleWriteP50: 3.5, startExecutionP50: 4 };
    // A token read, one conditional UpdateItem and one StartExecution: +1.5 for the write, +4 for the start.
    expect(callPriceAdjustment({ calls: { GetItem: 1, UpdateItem: 1 }, startExecutions: 1 }, floors)).toBeCloseTo(5.5);
    expect(callPriceAdjustment({ calls: { GetItem: 1, PutItem: 1, DeleteItem: 1 } }, floors)).toBeCloseTo(3);
    // Reads and transactions only, or no such floors measured (older results): nothing changes.
    expect(callPriceAdjustment({ calls: { GetItem: 1, Query: 2, TransactWriteItems: 1 } }, floors)).toBe(0);
    expect(callPriceAdjustment({ calls: { GetItem: 1, UpdateItem: 1 }, startExecutions: 1 }, { getItemP50: 2 })).toBe(0);
    // A write floor measured below the GetItem floor (noise) never prices the write below a GetItem.
    expect(callPriceAdjustment({ calls: { UpdateItem: 1 } }, { getItemP50: 2, singleWriteP50: 1.5 })).toBe(0);
  });

  it("prices a request at the baseline endpoint's p50 plus its other calls, each at the adjacent floor of its kind", () => {
    const shape = { items: 1, bytesPerItem: 304, attributesPerItem: 8, parallelCalls: 1 };
    const query = { Query: { callsPerRequest: 1, itemsPerCall: 1, bytesPerItem: 300, attributesPerItem: 8, parallelCalls: 1 } };
    // One Query (A19's shape): the hop (baseline 4 - GetItem 3) + the bare one-item Query at 3.5.
    expect(
      floorFor({ calls: { Query: 1 }, roundTrips: 1, readShapes: query }, { getItemP50: 3, baselineP50: 4, reads: { Query: { p50: 3.5, shape } } }),
    ).toBeCloseTo(4.5);
    // A Query measured below the GetItem floor (a burst during the GetItem floor): never below the baseline endpoint's p50.
    expect(
      floorFor({ calls: { Query: 1 }, roundTrips: 1, readShapes: query }, { getItemP50: 12, baselineP50: 6, reads: { Query: { p50: 4, shape } } }),
    ).toBeCloseTo(6);
    // A token GetItem and a two-item transaction: the baseline (hop + one GetItem) + the transaction floor.
    expect(
      floorFor({ calls: { GetItem: 1, TransactWriteItems: 1 }, roundTrips: 2 }, { getItemP50: 3, baselineP50: 4, transactWriteP50: 6, transactItems: 2 }),
    ).toBeCloseTo(10);
    // A transaction with no transaction floor measured (its warm-up made none): no ratio rather than a wrong one.
    expect(floorFor({ calls: { GetItem: 1, TransactWriteItems: 1 }, roundTrips: 2 }, { getItemP50: 3, baselineP50: 4 })).toBeNull();
    // The login: its password hash is priced as intrinsic work.
    expect(floorFor({ calls: { GetItem: 2 }, roundTrips: 2 }, { getItemP50: 3, baselineP50: 4, passwordHashP50: 50 }, 'passwordHash')).toBeCloseTo(57);
  });

  it("shows the baseline endpoint's CPU figure beside the endpoint's, and nothing for results without it", () => {
    expect(withBaseline(2.31, 1.4)).toBe('2.31 (1.40)');
    expect(withBaseline(2.31, undefined)).toBe('2.31');
  });

  it('runs a floor for its minimum number of samples even when its time is up', async () => {
    let operations = 0;
    const run = await closedLoop(2, { durationMs: 0, minimumAmount: 7 }, async () => {
      operations += 1;
    });
    expect(operations).toBe(7);
    expect(run.summary.count).toBe(7);
  });
});

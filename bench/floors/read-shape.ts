/**
 * The shape of a shaped read (a Query that returned any item; a BatchGetItem that returned two items or more, or a single item of at least LARGE_ITEM_BYTES): how many
 * items it returned and how large they were. bench/harness/server.ts measures it on the handlers' calls,
 * bench/floors/floor.ts on its bare reads, with the same functions here, so an endpoint's reads and the floor
 * they are priced at are sized the same way.
 *
 * Size: the JSON length of the items as the document client returns them (unmarshalled: the items'
 * attribute names and values, without DynamoDB JSON's type wrappers; sets as arrays). Robust and cheap,
 * and it follows what DynamoDB Local serialises and the SDK parses; it is not DynamoDB's billed item
 * size (ConsumedCapacity counts in 4 KB read units: too coarse to tell a 300-byte item from a 3 KB one).
 */

/**
 * Request header of the warm-up's requests: only they make bench/harness/server.ts size the items the reads returned
 * (a JSON serialisation of each item: server CPU that the measured requests must not pay, since the baseline
 * endpoint they are compared with pays none). The measured run is priced at its warm-up's shapes.
 */
export const RECORD_READ_SHAPES_HEADER = 'x-bench-record-read-shapes';

/** The read operations whose multi-item calls are priced at a floor of their own shape. */
export const SHAPED_READS = ['Query', 'BatchGetItem'] as const;
export type ShapedRead = (typeof SHAPED_READS)[number];

/** Totals over a request's (or a run's) multi-item calls of one operation. */
export interface ReadShapeTotals {
  /** Calls priced at their own shape (addReadShape); any other call is priced as a GetItem. */
  calls: number;
  items: number;
  bytes: number;
  /** Top-level attributes, summed over the items. */
  attributes: number;
  /**
   * For one request: the most calls of the operation in flight at once (a handler that queries index shards
   * in parallel). Summed over requests by bench/harness/measure.ts (each request's capped at its multi-item calls).
   */
  parallel: number;
}

/** The items a read's (unmarshalled) output carries: a Query's `Items`, a BatchGetItem's `Responses` over its tables. */
export function returnedItems(operation: ShapedRead, output: unknown): Record<string, unknown>[] {
  if (operation === 'Query') return (output as { Items?: Record<string, unknown>[] }).Items ?? [];
  return Object.values((output as { Responses?: Record<string, Record<string, unknown>[]> }).Responses ?? {}).flat();
}

/**
 * The items one bare read of the floor partition returns: all of them, except a Query of a partition larger than a
 * page (1 MB of items): DynamoDB answers its first page and a LastEvaluatedKey, as it does to a handler's Query, and
 * each page of the handler's is a call of its own. The shape's rounding (read-shape.ts bucket: items and bytes each up
 * to ~9% up) can make the floor partition of a page-sized call exceed a page; the floor is then one page of it.
 */
export function itemsPerCall(operation: ShapedRead, output: unknown, partitionItems: number): number {
  const returned = returnedItems(operation, output).length;
  if (returned === partitionItems) return returned;
  if (operation === 'Query' && returned > 0 && (output as { LastEvaluatedKey?: unknown }).LastEvaluatedKey !== undefined) return returned;
  throw new Error(`the ${operation} floor returned ${returned} of ${partitionItems} items`);
}

export function itemBytes(item: Record<string, unknown>): number {
  return JSON.stringify(item, (_key, value: unknown) => (value instanceof Set ? [...value] : value)).length;
}

/**
 * A single item at least this large (JSON bytes, as itemBytes measures) is priced at a bare read of its own
 * size, like a multi-item read: DynamoDB Local takes measurably longer to return a menu of several KiB
 * than a token item of a hundred bytes. Smaller single items stay at the GetItem floor.
 */
export const LARGE_ITEM_BYTES = 2048;

/**
 * Adds one call's output to `totals` when it is priced at its own shape: a Query that returned any item (a
 * Query, even of one item on an index, is another call than a GetItem: DynamoDB Local's Query path costs
 * more, the database's work, not the handler's), a BatchGetItem that returned two items or more or one large
 * item (>= LARGE_ITEM_BYTES; a BatchGetItem of one small item is priced as the GetItem it amounts to).
 */
export function addReadShape(totals: ReadShapeTotals, items: Record<string, unknown>[], operation: ShapedRead = 'BatchGetItem'): void {
  if (items.length === 0) return;
  const sizes = items.map(itemBytes);
  if (operation !== 'Query' && items.length === 1 && sizes[0]! < LARGE_ITEM_BYTES) return;
  totals.calls += 1;
  totals.items += items.length;
  for (const [index, item] of items.entries()) {
    totals.bytes += sizes[index]!;
    totals.attributes += Object.keys(item).length;
  }
}

/** `Query=calls:items:bytes:attributes:parallel,...` (the X-Bench-Read-Shapes header). */
export function formatReadShapes(shapes: Partial<Record<ShapedRead, ReadShapeTotals>>): string {
  return Object.entries(shapes)
    .filter(([, totals]) => totals.calls > 0)
    .map(([operation, totals]) => `${operation}=${totals.calls}:${totals.items}:${totals.bytes}:${totals.attributes}:${totals.parallel}`)
    .join(',');
}

export function parseReadShapes(header: string): Partial<Record<ShapedRead, ReadShapeTotals>> {
  const shapes: Partial<Record<ShapedRead, ReadShapeTotals>> = {};
  for (const pair of header.split(',').filter(Boolean)) {
    const [operation, figures] = pair.split('=') as [ShapedRead, string];
    const [calls, items, bytes, attributes, parallel] = figures.split(':').map(Number) as [number, number, number, number, number];
    shapes[operation] = { calls, items, bytes, attributes, parallel: Math.min(calls, parallel) };
  }
  return shapes;
}

/** The mean shape of an endpoint's multi-item calls of one operation (what bench/harness/measure.ts reports). */
export interface ReadShape {
  /** Multi-item calls per request (mean over the requests). */
  callsPerRequest: number;
  itemsPerCall: number;
  bytesPerItem: number;
  attributesPerItem: number;
  /** How many of them a request had in flight at once (mean over the requests that made any): 1 when sequential. */
  parallelCalls: number;
}

/** The floor a shape is priced at: items, bytes and attributes per item rounded to a few buckets. */
export interface FloorShape {
  items: number;
  bytesPerItem: number;
  attributesPerItem: number;
  /** Bare calls issued at once (Promise.all) per measured operation, like the handler's parallel reads. */
  parallelCalls: number;
}

/**
 * Rounds to the nearest step of a geometric scale with four steps per doubling (2, 3, 4, 5, 6, 7, 8, 10,
 * 11, 13, 16, 19, 23, 27, 32...; 256, 304, 362, 431, 512...): at most ~9% off (half an item for a few items), so the floor partitions
 * seeded over a run stay few while each is still the endpoint's own shape.
 */
export function bucket(value: number, minimum: number): number {
  if (!(value > minimum)) return minimum;
  return Math.max(minimum, Math.round(2 ** (Math.round(Math.log2(value) * 4) / 4)));
}

export function floorShape(shape: Pick<ReadShape, 'itemsPerCall' | 'bytesPerItem' | 'attributesPerItem' | 'parallelCalls'>): FloorShape {
  // Three attributes at least: the floor item's keys and one value; 64 bytes at least: the keys themselves.
  // One item when the calls returned one large item each (an average below 1.5 rounds to a single item).
  return {
    items: bucket(shape.itemsPerCall, 1),
    bytesPerItem: bucket(shape.bytesPerItem, 64),
    attributesPerItem: bucket(shape.attributesPerItem, 3),
    parallelCalls: Math.max(1, Math.round(shape.parallelCalls)),
  };
}

/**
 * How a request's multi-item reads are priced differently from the GetItem floor each is first priced
 * at: the shaped Query / BatchGetItem calls (addReadShape; mean per request, from the warm-up, which
 * records the shapes) at the bare reads of the endpoint's shape measured next to the run, in groups of as many
 * calls as the handler had in flight at once, each group at its p50 and never below a GetItem. Zero without
 * such calls or without that floor (results from before it existed): those floors are unchanged.
 *
 * Why the clamp stays (reconsidered 2026-11-23, when the adjacent floors came to be measured on both sides
 * of the run): a Query does at least a GetItem's work in DynamoDB (the same partition lookup, plus the key
 * condition and the page), so a bare Query measured below the GetItem floor is noise in one of the two. The
 * hop is priced as baseline - GetItem floor, so without the clamp a one-Query endpoint's floor is
 * baseline + Query - GetItem, and a burst during the GetItem floor pushes it below the baseline endpoint's,
 * even below zero (a quick run under load: the menu's floor came out at -1.69 ms). With it, such an endpoint
 * is priced at least as the one-GetItem baseline: the database's work, not a favour.
 */
export function shapedReadAdjustment(
  load: { calls: Record<string, number>; readShapes?: Partial<Record<ShapedRead, ReadShape>> },
  floor: { getItemP50: number; reads?: Partial<Record<ShapedRead, { p50: number; shape: FloorShape }>> },
): number {
  return SHAPED_READS.reduce((sum, operation) => {
    const shaped = floor.reads?.[operation];
    const multiItemCalls = Math.min(load.readShapes?.[operation]?.callsPerRequest ?? 0, load.calls[operation] ?? 0);
    if (shaped === undefined || multiItemCalls === 0) return sum;
    const groups = multiItemCalls / Math.max(1, shaped.shape.parallelCalls);
    return sum + groups * Math.max(shaped.p50, floor.getItemP50) - multiItemCalls * floor.getItemP50;
  }, 0);
}

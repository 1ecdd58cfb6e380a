/**
 * A page of an orders index, newest first, read one way for both lists a client pages through: the user's
 * orders an app may show (gsi1, user-orders.ts) and a location's orders (gsi2, merchant-orders.ts).
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { newestFirstQuery } from '#shared/db/reads.ts';
import { ordersFrom, type StoredOrder } from './record.ts';

/** An order of a page and its position in the list (its index sort key): the page after it starts below it. */
export interface PositionedOrder<T> {
  order: T;
  position: string;
}

/** Where a page starts: below `cursor` (from a previous page's Link), else `page` (1-based) whole pages from the newest. */
export interface PagePosition {
  cursor?: string;
  page: number;
}

/** Which orders index partition a list reads, and how. */
export interface OrdersIndexRead {
  index: 'gsi1' | 'gsi2';
  partition: { pk: string; skPrefix: string };
  /** The most items one Query asks for. */
  maxLimit: number;
  /** Reads only these attributes (a list that shows a few columns of large items). */
  projection?: { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> };
  /** The orders the list shows (an app sees only its merchants'); without it, every order of the partition. */
  shows?: (order: StoredOrder) => boolean;
  /**
   * The index key of the order at a cursor: the page resumes after it within the partition's prefix (a prefix
   * narrower than every order's, as one day of a location's, which `sk < cursor` would leave). Without it, below the cursor.
   */
  resumeAfter?: (cursor: string) => Record<string, unknown>;
}

/**
 * One page of `read`'s partition, newest first. A cursor resumes below that order with bounded Queries however
 * deep the page; without one, `page` skips whole pages from the newest (the handler bounds how deep:
 * shared/http/paging.ts).
 */
export async function pageOfOrders(read: OrdersIndexRead, position: PagePosition, pageSize: number): Promise<PositionedOrder<StoredOrder>[]> {
  const skip = position.cursor ? 0 : (Math.max(1, position.page) - 1) * pageSize;
  const wanted = skip + pageSize;
  const found: PositionedOrder<StoredOrder>[] = [];
  const resumeKey = position.cursor && read.resumeAfter ? read.resumeAfter(position.cursor) : undefined;
  const query = newestFirstQuery(read.index, read.partition, resumeKey ? undefined : position.cursor);
  const sortKey = `${read.index}sk` as const;
  let startKey: Record<string, unknown> | undefined = resumeKey;
  // First read exactly what is missing: in the common case the list shows every order of the partition, and each extra
  // item read is DynamoDB's work plus unmarshalling for nothing. Widen only when `shows` dropped some.
  let limit = Math.min(wanted, read.maxLimit);
  do {
    const page: QueryCommandOutput = await db().send(
      new QueryCommand({
        ...query,
        ...read.projection,
        ExpressionAttributeNames: { ...read.projection?.ExpressionAttributeNames, ...query.ExpressionAttributeNames },
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const order of ordersFrom(page.Items)) {
      if (read.shows?.(order) ?? true) found.push({ order, position: order[sortKey] });
      if (found.length >= wanted) break;
    }
    startKey = found.length >= wanted ? undefined : page.LastEvaluatedKey;
    const missing = wanted - found.length;
    limit = read.shows ? Math.min(Math.max(missing * 4, 20), read.maxLimit) : Math.min(missing, read.maxLimit);
  } while (startKey);
  return found.slice(skip, skip + pageSize);
}

/** The stored events of an audience: GET /v15/events and replays read them in order (oldest first). */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { EVENT_INDEX_SHARDS, keys } from '#shared/db/keys.ts';
import { Event, EVENT_RETENTION_DAYS, eventIdInstant, type EventRecord } from '#shared/db/outbox.ts';
import { audienceKey, type Audience, type EventType } from './catalogue.ts';

/** Events per page of GET /v15/events. */
export const EVENTS_PAGE_SIZE = 50;
/** Query pages one list request may read while a `types` filter skips events (bounds a request's work). */
const MAX_QUERY_PAGES = 10;
/**
 * How many times its even share of a page (limit / shards) a shard's first Query reads without a filter.
 * A resource's events share a shard, so a page's events spread over the shards about evenly, in clumps of
 * a resource's few events: 3x (19 of 50) fills the page in one round but for about 1 page in 250 even with
 * every resource's events in pairs (1 in 30,000 with one event each); such a page reads its crowded shard
 * again (a second round trip), where reading `limit` from every shard read ~8 times what a page takes.
 */
const FIRST_READ_SHARE_FACTOR = 3;

/** The lowest id of the retention window: nothing older is listed, whatever TTL has not deleted yet. */
function oldestListedId(now: number): string {
  return eventIdInstant(now - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
}

/** What a reader takes of each event: only these attributes are read back (less to transfer and decode). */
type EventField = keyof EventRecord;

interface ReadOptions<F extends EventField> {
  after?: string;
  types?: readonly EventType[];
  /** Matching events wanted at most. */
  limit: number;
  /** Events one Query page may evaluate (the filter drops the other types after DynamoDB read them). */
  evaluatedPerPage: number;
  /** Query pages at most; undefined: until `limit` or the end. */
  maxPages?: number;
  fields: readonly F[];
  now?: number;
}

interface ReadEvents<F extends EventField> {
  events: Pick<EventRecord, F | 'event_id'>[];
  /** Where a later read resumes (the last event read or evaluated) when more may follow. */
  next: string | undefined;
}

/** One index partition's reading: what it matched so far (in id order) and where it stopped (undefined: its end). */
interface PartitionRead<T> {
  partition: string;
  items: T[];
  /** The last id this partition evaluated; nothing at or before it is unread. */
  reached: string;
  startKey: Record<string, unknown> | undefined;
  done: boolean;
  /** The Limit of its first Query, when smaller than the page (unfiltered shards). */
  firstLimit: number | undefined;
}

/**
 * The audience's events after `after` (or from the start of the window), oldest first, of `types` if given,
 * merged from its index partitions (keys.audienceEventPartitions: the shards and the pre-sharding partition),
 * each read in parallel from where it stopped. An event is taken only up to the lowest point a partition
 * with more to read has reached, so the merged order is the ids' order and nothing is skipped or repeated;
 * the next page resumes after the last id taken (the same cursor as one partition had).
 */
async function readEvents<F extends EventField>(audience: Audience, options: ReadOptions<F>): Promise<ReadEvents<F>> {
  const floor = oldestListedId(options.now ?? Date.now());
  const start = options.after && options.after > floor ? options.after : floor;
  const types = options.types?.length ? options.types : undefined;
  // Every name through a placeholder: `type` and others are DynamoDB reserved words.
  const names = Object.fromEntries([...new Set<string>([...options.fields, 'event_id'])].map((field, index) => [`#f${index}`, field]));
  type Item = Pick<EventRecord, F | 'event_id'>;
  // Without a filter a shard's first Query reads a few times its share of the page, the partition of the
  // events from before sharding (its last) the whole page: it held every event of its time.
  const firstRead = Math.min(options.limit, Math.ceil((FIRST_READ_SHARE_FACTOR * options.limit) / EVENT_INDEX_SHARDS));
  const reads: PartitionRead<Item>[] = keys.audienceEventPartitions(audienceKey(audience)).map((partition, index) => ({
    partition,
    items: [],
    reached: start,
    startKey: undefined,
    done: false,
    firstLimit: !types && index < EVENT_INDEX_SHARDS ? firstRead : undefined,
  }));
  const readPage = async (read: PartitionRead<Item>, wanted: number) => {
    const result = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :start',
        ProjectionExpression: Object.keys(names).join(', '),
        ...(types ? { FilterExpression: `#type IN (${types.map((_, index) => `:t${index}`).join(', ')})` } : {}),
        ExpressionAttributeNames: { ...names, ...(types ? { '#type': 'type' } : {}) },
        ExpressionAttributeValues: { ':pk': read.partition, ':start': start, ...Object.fromEntries((types ?? []).map((type, index) => [`:t${index}`, type])) },
        // Without a filter every event read is one returned: read what is wanted.
        Limit: types ? Math.max(wanted, options.evaluatedPerPage) : Math.min(wanted, read.firstLimit ?? wanted),
        ExclusiveStartKey: read.startKey,
      }),
    );
    read.firstLimit = undefined;
    for (const item of result.Items ?? []) {
      const event = Event.from(item);
      if (event) read.items.push(event);
    }
    read.startKey = result.LastEvaluatedKey;
    read.done = !result.LastEvaluatedKey;
    if (result.LastEvaluatedKey) read.reached = String(result.LastEvaluatedKey.gsi1sk);
  };
  for (let round = 0; ; round++) {
    // Every partition still open has read everything up to its `reached`: events up to the lowest are final.
    let horizon: string | undefined;
    let open = 0;
    for (const read of reads) {
      if (read.done) continue;
      open++;
      if (horizon === undefined || read.reached < horizon) horizon = read.reached;
    }
    // Each partition's items are in id order (a Query returns its sort key's order): its final ones lead.
    const finalCounts = reads.map((read) => countUpTo(read.items, horizon));
    const finalCount = finalCounts.reduce((sum, count) => sum + count, 0);
    // A full page needs no look past it: every page with events links the page after it anyway (shared/http/paging.ts).
    if (finalCount >= options.limit || open === 0 || (options.maxPages !== undefined && round >= options.maxPages)) {
      const events = mergeLeading(
        reads.map((read) => read.items),
        finalCounts,
        options.limit,
      );
      const more = finalCount > options.limit || open > 0;
      // More may follow: resume after the last event taken, or (none taken) after the horizon the filter skipped to.
      const next = !more ? undefined : events.length === options.limit ? events.at(-1)!.event_id : horizon;
      return { events, next: next === start ? undefined : next };
    }
    const wanted = options.limit - finalCount;
    // Partitions that hold back the horizon, or whose unread part may hold the events still wanted.
    const refills = reads.filter((read, index) => !read.done && read.items.length - finalCounts[index]! < wanted);
    await Promise.all(refills.map((read) => readPage(read, wanted)));
  }
}

/** How many of `items` (in id order) are at or before `horizon`; all of them when there is none. */
function countUpTo(items: readonly { event_id: string }[], horizon: string | undefined): number {
  if (horizon === undefined) return items.length;
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (items[middle]!.event_id <= horizon) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first `limit` of the lists' leading items (`counts[i]` of `lists[i]`, each list in id order), in id
 * order: a merge of the partitions' sorted reads, cheaper than concatenating and sorting them (~0.2 ms a page).
 */
function mergeLeading<T extends { event_id: string }>(lists: readonly (readonly T[])[], counts: readonly number[], limit: number): T[] {
  const heads = counts.map(() => 0);
  const merged: T[] = [];
  while (merged.length < limit) {
    let best = -1;
    for (let index = 0; index < lists.length; index++) {
      if (heads[index]! < counts[index]! && (best < 0 || lists[index]![heads[index]!]!.event_id < lists[best]![heads[best]!]!.event_id)) best = index;
    }
    if (best < 0) break;
    merged.push(lists[best]![heads[best]!++]!);
  }
  return merged;
}

export interface EventsPage {
  /** The page's events (their ids and stored bodies, `{"event": {...}}` as delivered), oldest first. */
  events: Pick<EventRecord, 'event_id' | 'body_json'>[];
  /** Where the next page resumes when the read stopped short of the end: the last event, or past skipped ones. */
  next: string | undefined;
}

/** One page of GET /v15/events: the audience's events after `after`, of `types` if given. */
export async function listEvents(
  audience: Audience,
  options: { after?: string; types?: readonly EventType[]; limit?: number; now?: number } = {},
): Promise<EventsPage> {
  const limit = options.limit ?? EVENTS_PAGE_SIZE;
  return readEvents(audience, { ...options, limit, evaluatedPerPage: limit, maxPages: MAX_QUERY_PAGES, fields: ['event_id', 'body_json'] });
}

/**
 * The JSON array of a page's events, spliced from the stored texts: byte for byte what parsing and
 * serialising them again would answer (they were written by JSON.stringify), without doing either.
 */
export function eventListJson(bodies: readonly string[]): string {
  return `[${bodies.join(',')}]`;
}

/** What a replay queues of each event: which event, and its resource (the delivery's FIFO group). */
export type ReplayedEvent = Pick<EventRecord, 'event_id' | 'resource_type' | 'resource_id'>;

/**
 * Up to `limit` of the audience's events after `after`, of `types`, oldest first, for a replay. Each Query
 * page evaluates up to `limit` events (or 1 MB), so events of other types cost a page per ~1 MB, not per 100.
 */
export async function eventsToReplay(audience: Audience, after: string, types: readonly EventType[], limit: number): Promise<ReplayedEvent[]> {
  const read = await readEvents(audience, { after, types, limit, evaluatedPerPage: limit, fields: ['event_id', 'resource_type', 'resource_id'] });
  return read.events;
}

/** The stored events of an audience: GET /v15/events and replays read them in order (oldest first). */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { EVENT_INDEX_SHARDS, keys } from '#shared/db/keys.ts';
import { EVENT_RETENTION_DAYS, eventIdInstant, type EventRecord } from '#shared/db/outbox.ts';
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
  const reads: PartitionRead<Item>[] = keys.audienceEventPartitions(audienceKey(audience)).map((partition, index) => ({ partition, items: [], reached: start, startKey: undefined, done: false, firstLimit: !types && index < EVENT_INDEX_SHARDS ? firstRead : undefined }));
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
    read.items.push(...((result.Items ?? []) as Item[]));
    read.startKey = result.LastEvaluatedKey;
    read.done = !result.LastEvaluatedKey;
    if (result.LastEvaluatedKey) read.reached = String(result.LastEvaluatedKey.gsi1sk);
  };
  for (let round = 0; ; round++) {
    const open = reads.filter((read) => !read.done);
    // Every partition still open has read everything up to its `reached`: events up to the lowest are final.
    const horizon = open.length === 0 ? undefined : open.reduce((lowest, read) => (read.reached < lowest ? read.reached : lowest), open[0]!.reached);
    const final = reads.flatMap((read) => read.items).filter((item) => horizon === undefined || item.event_id <= horizon);
    final.sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
    // The Link rule of one `limit`-event Query per partition: a next page when more than `limit` events
    // follow, or when one partition alone holds `limit` (its Query stopped at the limit, more or not).
    const pageOfOnePartition = reads.some((read) => read.items.length >= options.limit);
    const readCount = reads.reduce((count, read) => count + read.items.length, 0);
    // Unfiltered, with partitions left open (first reads stop short of `limit`), a full page whose reads
    // hold exactly `limit` events does not yet tell whether more follow: one more event is read.
    const linkKnown = types !== undefined || open.length === 0 || readCount > options.limit || pageOfOnePartition;
    const pageFull = final.length >= options.limit && linkKnown;
    if (pageFull || open.length === 0 || (options.maxPages !== undefined && round >= options.maxPages)) {
      const events = final.slice(0, options.limit);
      const more = final.length > options.limit || open.length > 0 || (!types && pageOfOnePartition);
      // More may follow: resume after the last event taken, or (none taken) after the horizon the filter skipped to.
      const next = !more ? undefined : events.length === options.limit ? events.at(-1)!.event_id : horizon;
      return { events, next: next === start ? undefined : next };
    }
    const wanted = options.limit - final.length;
    // Partitions that hold back the horizon, or whose unread part may hold the events still wanted; with
    // the page full but its Link undecided, every open partition for one more event.
    const refills = wanted === 0 ? open : open.filter((read) => read.items.filter((item) => horizon === undefined || item.event_id > horizon).length < wanted);
    await Promise.all(refills.map((read) => readPage(read, Math.max(wanted, 1))));
  }
}

export interface EventsPage {
  /** The stored bodies, `{"event": {...}}` as delivered, oldest first. */
  bodies: string[];
  /** The last event's id when more may follow (the next page's `after`). */
  next: string | undefined;
}

/** One page of GET /v15/events: the audience's events after `after`, of `types` if given. */
export async function listEvents(audience: Audience, options: { after?: string; types?: readonly EventType[]; limit?: number; now?: number } = {}): Promise<EventsPage> {
  const limit = options.limit ?? EVENTS_PAGE_SIZE;
  const page = await readEvents(audience, { ...options, limit, evaluatedPerPage: limit, maxPages: MAX_QUERY_PAGES, fields: ['event_id', 'body_json'] });
  return { bodies: page.events.map((event) => event.body_json), next: page.next };
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

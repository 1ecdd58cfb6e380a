/** The stored events of an audience: GET /v15/events and replays read them in order (oldest first). */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { EVENT_ID_PREFIX, keys } from '#shared/db/keys.ts';
import { EVENT_RETENTION_DAYS, eventId, type EventRecord } from '#shared/db/outbox.ts';
import { audienceKey, type Audience, type EventType } from './catalogue.ts';

/** Events per page of GET /v15/events. */
export const EVENTS_PAGE_SIZE = 50;
/** Query pages one list request may read while a `types` filter skips events (bounds a request's work). */
const MAX_QUERY_PAGES = 10;


/** The lowest id of the retention window: nothing older is listed, whatever TTL has not deleted yet. */
function oldestListedId(now: number): string {
  return eventId(now - EVENT_RETENTION_DAYS * 24 * 3600 * 1000).slice(0, EVENT_ID_PREFIX.length + 9);
}

export interface EventsPage {
  events: EventRecord[];
  /** The last event's id when more may follow (the next page's `after`). */
  next: string | undefined;
}

/** The audience's events after `after` (or from the start of the window), oldest first, of `types` if given. */
export async function listEvents(audience: Audience, options: { after?: string; types?: readonly EventType[]; limit?: number; now?: number } = {}): Promise<EventsPage> {
  const limit = options.limit ?? EVENTS_PAGE_SIZE;
  const partition = keys.audienceEvents(audienceKey(audience));
  const floor = oldestListedId(options.now ?? Date.now());
  const start = options.after && options.after > floor ? options.after : floor;
  const types = options.types?.length ? options.types : undefined;
  const events: EventRecord[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  for (let page = 0; page < MAX_QUERY_PAGES && events.length < limit; page++) {
    const result = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :start',
        ...(types ? { FilterExpression: `#type IN (${types.map((_, index) => `:t${index}`).join(', ')})` } : {}),
        ExpressionAttributeNames: types ? { '#type': 'type' } : undefined,
        ExpressionAttributeValues: { ':pk': partition.gsi1pk, ':start': start, ...Object.fromEntries((types ?? []).map((type, index) => [`:t${index}`, type])) },
        Limit: limit - events.length,
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    events.push(...((result.Items ?? []) as EventRecord[]));
    exclusiveStartKey = result.LastEvaluatedKey;
    if (!exclusiveStartKey) break;
  }
  // More may follow when the Query stopped early (page full, or the bound on events a filter skipped).
  return { events, next: exclusiveStartKey ? String(exclusiveStartKey.gsi1sk) : undefined };
}

/** The API body of a stored event: `{"event": {...}}`, as delivered. */
export function eventBody(record: EventRecord): { event: Record<string, unknown> } {
  return JSON.parse(record.body_json) as { event: Record<string, unknown> };
}

/** One event by id, if it belongs to the audience. */
export async function getAudienceEvent(audience: Audience, id: string): Promise<EventRecord | undefined> {
  const result = await db().send(new QueryCommand({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :id',
    ExpressionAttributeValues: { ':pk': keys.audienceEvents(audienceKey(audience)).gsi1pk, ':id': id },
  }));
  return result.Items?.[0] as EventRecord | undefined;
}

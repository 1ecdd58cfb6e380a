/**
 * The event outbox: an event is items of the SAME TransactWriteItems as the change it reports, so an event
 * exists if and only if its change committed (docs/events.md). Two items per event:
 *
 * - the resource's counter (`keys.eventSequence`): its `seq` raised by exactly one, guarded by the value
 *   read (`attribute_not_exists` for a resource's first event), so two changes of one resource can never
 *   both commit with the same sequence number. A transaction cancelled only by that guard lost a race to
 *   another event of the resource: `transactWrite` rebuilds and retries it like a transaction conflict.
 * - the event (`keys.event`), whose id sorts by time and never goes back within a resource (the counter
 *   keeps the last id's instant), indexed by its audience for `GET /v15/events`, kept 30 days (TTL).
 *   The body is stored as the exact JSON text every delivery sends, so a retry or a replay is byte-identical.
 *
 * One event per resource per transaction (DynamoDB refuses two writes of one counter in a transaction).
 */
import { randomBytes } from 'node:crypto';
import { equals, itemIsNew } from '#shared/db/conditions.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { EVENT_ID_PREFIX, EVENT_INDEX_SHARDS, keys } from '#shared/db/keys.ts';
import type { TransactItem } from '#shared/db/transactions.ts';

/** How long events are kept and listed (GET /v15/events, replays). */
export const EVENT_RETENTION_DAYS = 30;

export interface OutboxEvent {
  type: string;
  resource: { type: string; id: string };
  /** Who receives it: `merchant:<id>` or `app:<id>` (docs/events.md, "Who receives what"). */
  audience: string;
  /** The resource as the API shows it to that audience. */
  data: Record<string, unknown>;
}

/** The stored event (what the stream carries and the list reads). */
export interface EventRecord {
  event_id: string;
  type: string;
  audience: string;
  resource_type: string;
  resource_id: string;
  sequence: number;
  created_at: string;
  /** `{"event": {...}}` exactly as delivered. */
  body_json: string;
}

/**
 * The stored event, as the outbox writes it and the domain reads it (the list, replays, deliveries, the
 * stream): its record, its TTL and its audience index key.
 */
export const Event = defineEntity<EventRecord & { ttl: number } & ReturnType<typeof keys.audienceEventsIndex>>()({ entity: 'Event', key: keys.event });
export type EventItem = EntityItem<typeof Event>;

/** A resource's event counter: its last sequence number and the instant of its last event id (in ms). */
const EventSequence = defineEntity<{ seq: number; last_event_ms: number }>()({ entity: 'EventSequence', key: keys.eventSequence });

/** The part of an event id that says its instant: `evt_` and the milliseconds in base 36, fixed width (ids sort by time). */
export function eventIdInstant(epochMs: number): string {
  return `${EVENT_ID_PREFIX}${epochMs.toString(36).padStart(9, '0')}`;
}

/** Event ids: the instant (above), then 16 random hex digits. */
export function eventId(epochMs: number): string {
  return `${eventIdInstant(epochMs)}${randomBytes(8).toString('hex')}`;
}

/**
 * The index shard of a resource's events: FNV-1a of its type and id, modulo EVENT_INDEX_SHARDS. A resource's
 * events share one shard (its sequence reads in order there); an audience's many resources spread its writes.
 */
export function eventIndexShard(resource: { type: string; id: string }): number {
  const text = `${resource.type}#${resource.id}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % EVENT_INDEX_SHARDS;
}

/** ISO 8601 to the second, UTC, `+00:00` (the API's one datetime spelling; shared/time.ts is not importable here). */
function isoSecondsOf(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export interface EventItemOptions {
  /** The change creates the resource: no counter can exist yet, so none is read. */
  newResource?: boolean;
  /**
   * The counter as the caller read it (consistently) with its own reads, saving a round trip; `null` when
   * that read found none. Only for a transaction's first build: a retry must read afresh (omit it).
   */
  counter?: Record<string, unknown> | null;
  now?: number;
}

/**
 * The items that record `event` with its change: add them to the change's transaction (inside the
 * `transactWrite` builder, so a retry reads the counter afresh).
 */
export async function eventItems(event: OutboxEvent, options: EventItemOptions = {}): Promise<TransactItem[]> {
  const counterAt = EventSequence.at(event.resource.type, event.resource.id);
  const counter = options.newResource
    ? undefined
    : options.counter !== undefined
      ? EventSequence.from(options.counter ?? undefined)
      : await counterAt.get({ consistent: true });
  const previous = counter?.seq ?? 0;
  const sequence = previous + 1;
  // A resource's ids never go back in time, whatever the clocks of the functions writing them.
  const epochMs = Math.max(options.now ?? Date.now(), (counter?.last_event_ms ?? 0) + 1);
  const id = eventId(epochMs);
  const createdAt = isoSecondsOf(epochMs);
  const body = {
    event: { id, type: event.type, created_at: createdAt, resource: { type: event.resource.type, id: event.resource.id }, sequence, data: event.data },
  };
  const record: EventRecord = {
    event_id: id,
    type: event.type,
    audience: event.audience,
    resource_type: event.resource.type,
    resource_id: event.resource.id,
    sequence,
    created_at: createdAt,
    body_json: JSON.stringify(body),
  };
  const expires = Math.floor(epochMs / 1000) + (EVENT_RETENTION_DAYS + 1) * 24 * 3600;
  return [
    counterAt.put({ seq: sequence, last_event_ms: epochMs }, previous === 0 ? itemIsNew : equals('seq', previous)),
    Event.at(id).putNew({ ...keys.audienceEventsIndex(event.audience, id, eventIndexShard(event.resource)), ...record, ttl: expires }),
  ];
}

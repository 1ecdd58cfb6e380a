/**
 * Delivery of events to webhook endpoints (docs/events.md):
 *
 * 1. `fanOut`: the table's stream hands over each committed event; every endpoint of its audience that
 *    subscribed to its type gets one queued delivery, grouped by endpoint and resource (FIFO), so a
 *    resource's events reach an endpoint in sequence order and one resource's failures hold no other.
 * 2. `deliver`: one attempt: POST the stored body, signed, with a 10 s limit. A 2xx is delivered; anything
 *    else is retried on RETRY_SCHEDULE_SECONDS (with jitter) while the delivery is younger than
 *    GIVE_UP_AFTER_SECONDS, then recorded as failed on the endpoint (the API shows it; a metric alarms).
 *    Either way the group moves on, so a later event of a resource is never delivered before an earlier
 *    one was delivered or given up.
 * 3. `replay`: queues again, in order, what an audience's endpoint should have received after an event.
 *
 * `WEBHOOK_TIME_SCALE` (default 1) multiplies every wait and the give-up age, so tests and the local stack
 * can run the same schedule in seconds (docs/events.md, "Testing a receiver").
 */
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import type { EventRecord } from '#shared/db/outbox.ts';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { recordWebhookDelivery } from '#shared/metrics.ts';
import { queueDeliveries, type DeliveryMessage, type QueuedDelivery } from '#shared/queues/deliveries.ts';

/** The consumer keeps a delivery to retry at the head of its group until its next attempt. */
export { delayRedelivery, type DeliveryMessage } from '#shared/queues/deliveries.ts';
import { isoSeconds } from '#shared/time.ts';
import { isLocalLoopbackUrl, isPublicAddress } from './addresses.ts';
import type { Audience } from './catalogue.ts';
import { allowsLoopbackUrls, getOwnEndpoint, listEndpoints, signingSecrets, type ListedEndpoint, type WebhookEndpointItem } from './endpoints.ts';
import { eventsToReplay } from './events.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';

/** Waits before the 2nd, 3rd, ... attempt; the last one repeats (every 12 h) until the delivery is given up. */
export const RETRY_SCHEDULE_SECONDS = [10, 60, 300, 1800, 7200, 21_600, 43_200] as const;
/** A delivery still failing this long after it was queued is given up (7 days). */
export const GIVE_UP_AFTER_SECONDS = 7 * 24 * 3600;
/** Jitter: each wait is the schedule's figure plus up to this fraction of it (so receivers recovering together are not hit at once). */
export const JITTER_FRACTION = 0.2;
/** A receiver has this long to answer 2xx. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Events one replay queues at most (30 days of a busy merchant fit in a few replays). */
export const MAX_REPLAY_EVENTS = 1000;

export function timeScale(): number {
  const scale = Number(optionalEnv('WEBHOOK_TIME_SCALE') ?? '1');
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/** The wait before the next attempt after `attempts` failed ones (seconds, scaled, with jitter). */
export function retryDelaySeconds(attempts: number, random: () => number = Math.random): number {
  const base = RETRY_SCHEDULE_SECONDS[Math.min(attempts, RETRY_SCHEDULE_SECONDS.length) - 1]!;
  return base * (1 + JITTER_FRACTION * random()) * timeScale();
}

const groupOf = (endpointId: string, event: Pick<EventRecord, 'resource_type' | 'resource_id'>) => `${endpointId}:${event.resource_type}:${event.resource_id}`.slice(0, 128);

function queued(endpoint: Pick<WebhookEndpointItem, 'endpoint_id'>, event: Pick<EventRecord, 'event_id' | 'resource_type' | 'resource_id'>, now: number, replay?: string): QueuedDelivery {
  return {
    message: { endpoint_id: endpoint.endpoint_id, event_id: event.event_id, queued_at: now, ...(replay ? { replay } : {}) },
    groupId: groupOf(endpoint.endpoint_id, event),
    deduplicationId: `${endpoint.endpoint_id}:${event.event_id}${replay ? `:${replay}` : ''}`.slice(0, 128),
  };
}

/** Queues each committed event (in the stream's order) for every endpoint of its audience that wants its type. */
export async function fanOut(events: readonly EventRecord[], now = Date.now()): Promise<number> {
  const endpointsOf = new Map<string, Promise<ListedEndpoint[]>>();
  const deliveries: QueuedDelivery[] = [];
  for (const event of events) {
    const [kind, id] = event.audience.split(':');
    if (!endpointsOf.has(event.audience)) endpointsOf.set(event.audience, listEndpoints({ kind: kind as Audience['kind'], id: Number(id) }));
    for (const endpoint of await endpointsOf.get(event.audience)!) {
      if (endpoint.events.includes(event.type as never)) deliveries.push(queued(endpoint, event, now));
    }
  }
  await queueDeliveries(deliveries);
  return deliveries.length;
}

/** Queues again, in order, the audience's events after `after` that the endpoint subscribes to. */
export async function replay(audience: Audience, endpointId: string, after: string, now = Date.now()): Promise<{ id: string; queued: number }> {
  const endpoint = await getOwnEndpoint(audience, endpointId);
  const id = `rp_${randomUUID().replaceAll('-', '')}`;
  const events = await eventsToReplay(audience, after, endpoint.events, MAX_REPLAY_EVENTS);
  await queueDeliveries(events.map((event) => queued(endpoint, event, now, id)));
  return { id, queued: events.length };
}

export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; delaySeconds: number; status: number | null; error?: string }
  | { kind: 'failed'; status: number | null; error?: string }
  | { kind: 'dropped'; reason: string };

/** Where a URL may be delivered now: its host must resolve to public addresses only (or be the local stack's loopback). */
async function addressAllowed(url: URL): Promise<boolean> {
  if (allowsLoopbackUrls() && isLocalLoopbackUrl(url)) return true;
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
}

/** POSTs the body once; the status (null when no answer came) and what went wrong. */
async function post(endpoint: WebhookEndpointItem, body: string, eventId: string): Promise<{ status: number | null; error?: string }> {
  const url = new URL(endpoint.url);
  if (!(await addressAllowed(url))) return { status: null, error: 'address_not_allowed' };
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'LevelUp-Webhooks/1.0',
        'LevelUp-Event-Id': eventId,
        [SIGNATURE_HEADER]: signatureHeader(signingSecrets(endpoint, timestamp), timestamp, body),
      },
      body,
      // A redirect could point anywhere (an internal address): it is an answer that is not 2xx.
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    return { status: null, error: (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable' };
  }
}

/**
 * One attempt of a queued delivery (`attempt`: 1 for the first). Delivered, retried later, or failed for
 * good once GIVE_UP_AFTER_SECONDS have passed since it was queued; dropped when the endpoint was deleted
 * or the event is gone.
 */
export async function deliver(message: DeliveryMessage, attempt: number, now = Date.now()): Promise<AttemptOutcome> {
  const [endpointItem, eventItem] = await readItems([keys.webhookEndpoint(message.endpoint_id), keys.event(message.event_id)], { consistent: true });
  const endpoint = endpointItem as WebhookEndpointItem | undefined;
  const event = eventItem as EventRecord | undefined;
  if (!endpoint) return { kind: 'dropped', reason: 'endpoint_deleted' };
  if (!event || event.audience !== endpoint.audience) return { kind: 'dropped', reason: 'event_gone' };
  const answer = await post(endpoint, event.body_json, event.event_id);
  const fields = { endpoint_id: endpoint.endpoint_id, event_id: event.event_id, attempt, status: answer.status, error: answer.error, replay: message.replay };
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    recordWebhookDelivery('delivered');
    log('info', 'webhook_delivered', fields);
    return { kind: 'delivered', status: answer.status };
  }
  const delaySeconds = retryDelaySeconds(attempt);
  const age = (now - message.queued_at) / 1000;
  // An attempt that fails 7 days or more after the delivery was queued is the last one.
  if (age >= GIVE_UP_AFTER_SECONDS * timeScale()) {
    await recordFailure(endpoint, event, attempt, answer.status);
    recordWebhookDelivery('failed');
    log('warn', 'webhook_failed', fields);
    return { kind: 'failed', ...answer };
  }
  recordWebhookDelivery('retried');
  log('info', 'webhook_retry', { ...fields, delay_seconds: Math.round(delaySeconds * 1000) / 1000 });
  return { kind: 'retry', delaySeconds, ...answer };
}

/** The endpoint remembers its given-up deliveries (count and the last), as GET /v15/webhook_endpoints shows. */
async function recordFailure(endpoint: WebhookEndpointItem, event: EventRecord, attempts: number, status: number | null): Promise<void> {
  await db().send(new UpdateCommand({
    TableName: table(),
    Key: keys.webhookEndpoint(endpoint.endpoint_id),
    UpdateExpression: 'ADD failed_deliveries :one SET last_failure = :failure',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':one': 1, ':failure': { event_id: event.event_id, failed_at: isoSeconds(), attempts, last_status: status } },
  })).catch((error: unknown) => {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  });
}

/** The events among a stream batch's new images (the stream carries every write of the table). */
export function eventsOfStream(newImages: readonly Record<string, unknown>[]): EventRecord[] {
  return newImages.filter((image) => keys.isEventKey(image) && typeof image.body_json === 'string') as unknown as EventRecord[];
}

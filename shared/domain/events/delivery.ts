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
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { itemExists } from '#shared/db/conditions.ts';
import { keys } from '#shared/db/keys.ts';
import { readItems } from '#shared/db/reads.ts';
import { Event, type EventRecord } from '#shared/db/outbox.ts';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { recordWebhookDelivery } from '#shared/metrics.ts';
import { consumeOrRefuse, release, WEBHOOK_REPLAYS_PER_DAY, WEBHOOK_REPLAYS_PER_ENDPOINT } from '#shared/domain/rate-limits.ts';
import { queueDeliveries, type DeliveryMessage, type QueuedDelivery } from '#shared/queues/deliveries.ts';

/** The consumer keeps a delivery to retry at the head of its group until its next attempt. */
export { delayRedelivery, type DeliveryMessage } from '#shared/queues/deliveries.ts';
import { isoSeconds } from '#shared/time.ts';
import { isLocalLoopbackUrl, isPublicAddress } from './addresses.ts';
import type { Audience } from './catalogue.ts';
import {
  allowsLoopbackUrls,
  getOwnEndpoint,
  listEndpoints,
  signingSecrets,
  WebhookEndpoint,
  type ListedEndpoint,
  type WebhookEndpointItem,
} from './endpoints.ts';
import { recordAttempt } from './deliveries.ts';
import { eventsToReplay } from './events.ts';
import { SIGNATURE_HEADER, signatureHeader, standardWebhooksHeaders } from './signature.ts';

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

const groupOf = (endpointId: string, event: Pick<EventRecord, 'resource_type' | 'resource_id'>) =>
  `${endpointId}:${event.resource_type}:${event.resource_id}`.slice(0, 128);

function queued(
  endpoint: Pick<WebhookEndpointItem, 'endpoint_id'>,
  event: Pick<EventRecord, 'event_id' | 'resource_type' | 'resource_id'>,
  now: number,
  replay?: string,
): QueuedDelivery {
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

/**
 * Queues again, in order, the audience's events after `after` that the endpoint subscribes to. Each replay
 * sends up to MAX_REPLAY_EVENTS signed POSTs to a URL the tenant chose, so replays are limited per endpoint:
 * a few per quarter hour, a cap per day (429 with Retry-After). Counted only for the tenant's own endpoint.
 */
export async function replay(audience: Audience, endpointId: string, after: string, now = Date.now()): Promise<{ id: string; queued: number }> {
  const endpoint = await getOwnEndpoint(audience, endpointId);
  const refusal = { object: 'replay', message: 'Too many replays of this webhook endpoint; retry after Retry-After seconds.' };
  await consumeOrRefuse(WEBHOOK_REPLAYS_PER_DAY, endpointId, refusal);
  try {
    await consumeOrRefuse(WEBHOOK_REPLAYS_PER_ENDPOINT, endpointId, refusal);
  } catch (error) {
    // Refused by the short window: the day's count gives back the replay that did not happen.
    await release(WEBHOOK_REPLAYS_PER_DAY, endpointId);
    throw error;
  }
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

/** An address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * How deliveries reach receivers: the resolver, where a socket to a checked address goes, and the TLS
 * trust. In production: the system's DNS, the address itself, the system's CAs. Tests replace them
 * (`useDeliveryNetwork`) to give receivers public names and addresses while they listen on loopback.
 */
export interface DeliveryNetwork {
  resolve(host: string): Promise<readonly ResolvedAddress[]>;
  reach(address: string): string;
  ca?: string;
}

const systemNetwork: DeliveryNetwork = { resolve: (host) => lookup(host, { all: true, verbatim: true }), reach: (address) => address };
let network: DeliveryNetwork = systemNetwork;

/** Replaces parts of the delivery network (tests); without an argument restores the system's. */
export function useDeliveryNetwork(replacement?: Partial<DeliveryNetwork>): void {
  network = { ...systemNetwork, ...replacement };
}

/**
 * The one address a delivery to `url` connects to, or undefined when it may not go there: the host is
 * resolved once, every address must be public (or the URL the local stack's loopback), and the first is
 * the one connected to. Resolving again to connect would let a name answer public for the check and
 * 127.0.0.1 for the connection (DNS rebinding).
 */
async function checkedAddress(url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // The local stack's loopback URL goes where it names (`localhost` may be 127.0.0.1 or ::1: the system tries both).
  if (allowsLoopbackUrls() && isLocalLoopbackUrl(url)) return host;
  if (url.protocol !== 'https:') return undefined;
  const addresses = isIP(host) !== 0 ? [{ address: host }] : await network.resolve(host).catch(() => []);
  if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) return undefined;
  return addresses[0]!.address;
}

/**
 * One POST to the checked address: the socket goes to that IP while the URL's host name stays the TLS
 * server name (SNI, certificate check) and the Host header. No redirect is followed (an answer that is not
 * 2xx); the answer's body is not read.
 */
async function postTo(url: URL, target: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  // Plain http is only ever the local stack's loopback receiver (checkedAddress): nothing to pin, and the
  // functions' bundles alias `node:http` to its status codes alone (infra/constructs/api-function.ts).
  if (url.protocol !== 'https:') {
    const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    await response.body?.cancel();
    return response.status;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        protocol: url.protocol,
        hostname: network.reach(target),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
        // SNI takes names only; an IP literal URL is checked against the certificate's IP names.
        servername: isIP(host) === 0 ? host : '',
        checkServerIdentity: serverIdentityFor(host),
        ca: network.ca,
        agent: false,
        signal,
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The certificate is checked for the URL's host, not for the address connected to. */
function serverIdentityFor(host: string) {
  return (_connectedTo: string, certificate: PeerCertificate) => checkServerIdentity(host, certificate);
}

/**
 * POSTs `body` once to a URL a tenant chose, only ever to the address checked for it (`checkedAddress`): the
 * status (null when no answer came) and what went wrong. Webhook deliveries and the permissions-request
 * callback (shared/domain/identity/permissions-requests.ts) both go out through here.
 */
export async function postToCheckedAddress(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number | null; error?: string }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { status: null, error: 'address_not_allowed' };
  }
  const target = await checkedAddress(url);
  if (!target) return { status: null, error: 'address_not_allowed' };
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return { status: await postTo(url, target, headers, body, signal) };
  } catch {
    return { status: null, error: signal.aborted ? 'timeout' : 'unreachable' };
  }
}

/** POSTs the event's body once, signed both ways (signature.ts). */
async function post(endpoint: WebhookEndpointItem, body: string, eventId: string): Promise<{ status: number | null; error?: string }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = signingSecrets(endpoint, timestamp);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'LevelUp-Webhooks/1.0',
    'LevelUp-Event-Id': eventId,
    [SIGNATURE_HEADER]: signatureHeader(secrets, timestamp, body),
    ...standardWebhooksHeaders(secrets, eventId, timestamp, body),
  };
  return postToCheckedAddress(endpoint.url, headers, body, DELIVERY_TIMEOUT_MS);
}

/**
 * One attempt of a queued delivery (`attempt`: 1 for the first). Delivered, retried later, or failed for
 * good once GIVE_UP_AFTER_SECONDS have passed since it was queued; dropped when the endpoint was deleted
 * or the event is gone.
 */
export async function deliver(message: DeliveryMessage, attempt: number, now = Date.now()): Promise<AttemptOutcome> {
  const [endpointItem, eventItem] = await readItems([keys.webhookEndpoint(message.endpoint_id), keys.event(message.event_id)], { consistent: true });
  const endpoint = WebhookEndpoint.from(endpointItem);
  const event = Event.from(eventItem);
  if (!endpoint) return { kind: 'dropped', reason: 'endpoint_deleted' };
  if (!event || event.audience !== endpoint.audience) return { kind: 'dropped', reason: 'event_gone' };
  const answer = await post(endpoint, event.body_json, event.event_id);
  const fields = { endpoint_id: endpoint.endpoint_id, event_id: event.event_id, attempt, status: answer.status, error: answer.error, replay: message.replay };
  const record = { endpointId: endpoint.endpoint_id, event, attempt, status: answer.status, error: answer.error, replay: message.replay, now };
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    recordWebhookDelivery('delivered');
    log('info', 'webhook_delivered', fields);
    await recordAttempt({ ...record, state: 'delivered' });
    return { kind: 'delivered', status: answer.status };
  }
  const delaySeconds = retryDelaySeconds(attempt);
  const age = (now - message.queued_at) / 1000;
  // An attempt that fails 7 days or more after the delivery was queued is the last one.
  if (age >= GIVE_UP_AFTER_SECONDS * timeScale()) {
    await recordFailure(endpoint, event, attempt, answer.status);
    recordWebhookDelivery('failed');
    log('warn', 'webhook_failed', fields);
    await recordAttempt({ ...record, state: 'failed' });
    return { kind: 'failed', ...answer };
  }
  recordWebhookDelivery('retried');
  log('info', 'webhook_retry', { ...fields, delay_seconds: Math.round(delaySeconds * 1000) / 1000 });
  await recordAttempt({ ...record, state: 'retrying', retryInSeconds: delaySeconds });
  return { kind: 'retry', delaySeconds, ...answer };
}

/** The endpoint remembers its given-up deliveries (count and the last), as GET /v15/webhook_endpoints shows. */
async function recordFailure(endpoint: WebhookEndpointItem, event: EventRecord, attempts: number, status: number | null): Promise<void> {
  const failure = { event_id: event.event_id, failed_at: isoSeconds(), attempts, last_status: status };
  await db()
    .send(
      new UpdateCommand(WebhookEndpoint.at(endpoint.endpoint_id).update({ add: { failed_deliveries: 1 }, set: { last_failure: failure } }, itemExists).Update),
    )
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
}

/** The events among a stream batch's new images (the stream carries every write of the table). */
export function eventsOfStream(newImages: readonly Record<string, unknown>[]): EventRecord[] {
  return newImages.flatMap((image) => (keys.isEventKey(image) && typeof image.body_json === 'string' ? (Event.from(image) ?? []) : []));
}

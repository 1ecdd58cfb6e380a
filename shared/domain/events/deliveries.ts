/**
 * What happened to each event sent to an endpoint (docs/events.md, "Deliveries"): one item per endpoint and event,
 * rewritten by every attempt (the first, each retry, a replay's), so `GET /v15/webhook_endpoints/:id/deliveries`
 * answers the endpoint's latest deliveries with their state without reading the queue. The queue stays the only
 * state a delivery runs on; this is its record for people, kept as long as the events are.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { EVENT_RETENTION_DAYS, type EventRecord } from '#shared/db/outbox.ts';
import { log } from '#shared/log.ts';
import { isoSeconds } from '#shared/time.ts';
import type { Audience } from './catalogue.ts';
import { getOwnEndpoint } from './endpoints.ts';

/** Deliveries one list answers: the endpoint's latest, newest event first. */
export const DELIVERIES_LISTED = 50;

export type DeliveryState = 'delivered' | 'retrying' | 'failed';

interface WebhookDeliveryAttributes {
  endpoint_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  /** Attempts of the latest sending (a replay starts again at 1). */
  attempts: number;
  /** The receiver's last HTTP status; null when it answered none (timeout, unreachable, refused address). */
  last_status: number | null;
  /** Why an attempt got no status: `timeout`, `unreachable`, `address_not_allowed`. */
  last_error: string | null;
  last_attempt_at: string;
  /** When a retrying delivery is tried next (null otherwise). */
  next_attempt_at: string | null;
  /** The replay that sent it last (null: the event's own delivery). */
  replay_id: string | null;
  ttl: number;
}

const WebhookDelivery = defineEntity<WebhookDeliveryAttributes>()({ entity: 'WebhookDelivery', key: keys.webhookDelivery });
type WebhookDeliveryItem = EntityItem<typeof WebhookDelivery>;

export interface AttemptRecord {
  endpointId: string;
  event: Pick<EventRecord, 'event_id' | 'type'>;
  state: DeliveryState;
  attempt: number;
  status: number | null;
  error?: string;
  retryInSeconds?: number;
  replay?: string;
  now: number;
}

/**
 * Records an attempt's outcome. A failure to record is logged and swallowed: the attempt itself happened, and failing
 * the message would send the event again for the sake of its record.
 */
export async function recordAttempt(attempt: AttemptRecord): Promise<void> {
  const update = WebhookDelivery.at(attempt.endpointId, attempt.event.event_id).update({
    creates: true,
    set: {
      endpoint_id: attempt.endpointId,
      event_id: attempt.event.event_id,
      event_type: attempt.event.type,
      state: attempt.state,
      attempts: attempt.attempt,
      last_status: attempt.status,
      last_error: attempt.error ?? null,
      last_attempt_at: isoSeconds(new Date(attempt.now)),
      next_attempt_at: attempt.retryInSeconds === undefined ? null : isoSeconds(new Date(attempt.now + attempt.retryInSeconds * 1000)),
      replay_id: attempt.replay ?? null,
      // Kept as long as the event it names (the list never shows a delivery of an event that is gone).
      ttl: Math.floor(attempt.now / 1000) + (EVENT_RETENTION_DAYS + 1) * 24 * 3600,
    },
  });
  await db()
    .send(new UpdateCommand(update.Update))
    .catch((error: unknown) => {
      log('error', 'webhook_delivery_record_error', { endpoint_id: attempt.endpointId, event_id: attempt.event.event_id, error: (error as Error).message });
    });
}

/** The audience's own endpoint's latest deliveries, newest event first (another audience's endpoint: 404). */
export async function listDeliveries(audience: Audience, endpointId: string): Promise<WebhookDeliveryItem[]> {
  await getOwnEndpoint(audience, endpointId);
  const { pk } = keys.webhookDeliveries(endpointId);
  const result = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      // Event ids sort by time: the key's order, reversed, is newest first.
      ScanIndexForward: false,
      Limit: DELIVERIES_LISTED,
    }),
  );
  return (result.Items ?? []).flatMap((item) => WebhookDelivery.from(item) ?? []);
}

/** A delivery as the API shows it. */
export function serializeDelivery(delivery: WebhookDeliveryItem) {
  return {
    delivery: {
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      state: delivery.state,
      attempts: delivery.attempts,
      last_status: delivery.last_status,
      last_error: delivery.last_error,
      last_attempt_at: delivery.last_attempt_at,
      next_attempt_at: delivery.next_attempt_at,
      replay_id: delivery.replay_id,
    },
  };
}

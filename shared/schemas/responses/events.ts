/** What the webhook endpoint operations answer (the requests: shared/schemas/events.ts; the events themselves: event-shapes.ts). */
import * as z from '#shared/schemas/zod.ts';
import { EVENT_TYPES } from '#shared/schemas/vocabularies.ts';
import { integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

const failure = z.object({ event_id: z.string(), failed_at: timestamp, attempts: integerId, last_status: z.nullable(integerId) });

export const webhookEndpointResponse = resource('WebhookEndpoint', 'webhook_endpoint', {
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  secret: z.optional(z.string()).check(z.describe('Only in the answers that make it (create, roll): store it then.')),
  created_at: timestamp,
  failed_deliveries: integerId.check(z.describe('Deliveries given up after 7 days of retries')),
  last_failure: z.nullable(failure),
});

export const webhookEndpointList = z.array(webhookEndpointResponse);

export const replayResponse = z.object({
  replay: z.object({ id: z.string(), webhook_endpoint_id: z.string(), after: z.string(), queued: integerId.check(z.describe('Deliveries queued')) }),
});

export const webhookDeliveryList = z.array(
  resource('WebhookDelivery', 'delivery', {
    event_id: z.string(),
    event_type: z.enum(EVENT_TYPES),
    state: z.enum(['delivered', 'retrying', 'failed']).check(z.describe('retrying: attempts go on until 7 days after the event was queued; failed: given up')),
    attempts: integerId.check(z.describe('Attempts of the latest sending (a replay starts again at 1)')),
    last_status: z.nullable(integerId).check(z.describe("The receiver's last HTTP status; null when there was none")),
    last_error: z.nullable(z.enum(['timeout', 'unreachable', 'address_not_allowed'])).check(z.describe('Why the last attempt got no status')),
    last_attempt_at: timestamp,
    next_attempt_at: z.nullable(timestamp).check(z.describe('When a retrying delivery is tried next')),
    replay_id: z.nullable(z.string()).check(z.describe("The replay that sent it last; null for the event's own delivery")),
  }),
);

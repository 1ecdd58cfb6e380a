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

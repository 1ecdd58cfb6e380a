/** Events and webhook endpoints (docs/events.md): the catalogue's types, requests and responses. */
import * as z from 'zod';
import { integerId, timestamp } from './common.ts';
import { named, schema } from './registry.ts';
import { EVENT_TYPES, type EventType } from './vocabularies.ts';

export { EVENT_TYPES, type EventType } from './vocabularies.ts';

/** `evt_`, 9 base-36 digits of the instant in ms, 16 hex digits (ids sort by time). */
export const EVENT_ID_PATTERN = /^evt_[0-9a-z]{9}[0-9a-f]{16}$/;
const eventId = /* @__PURE__ */ schema(() => z.string().regex(EVENT_ID_PATTERN, 'is not an event id'));

/** POST /v15/webhook_endpoints */
export const webhookEndpointBody = /* @__PURE__ */ schema(() => z.object({
  webhook_endpoint: z.object({
    url: z.string().min(1).max(2048),
    events: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length * 2),
  }),
}));

export const webhookEndpointParams = /* @__PURE__ */ schema(() => z.object({ id: z.string().regex(/^we_[0-9a-f]{32}$/) }));

/** POST /v15/webhook_endpoints/:id/replays */
export const replayBody = /* @__PURE__ */ schema(() => z.object({ replay: z.object({ after: eventId }) }));

/** GET /v15/events?after=<event id>&types=a,b */
export const eventsQuery = /* @__PURE__ */ schema(() => z.object({
  after: z.preprocess((value) => (value === '' ? undefined : value), eventId.optional()),
  types: z
    .string()
    .max(1000)
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return undefined;
      const types = [...new Set(value.split(',').map((type) => type.trim()).filter(Boolean))];
      const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
      if (unknown.length > 0) {
        context.addIssue({ code: 'custom', message: `are not event types: ${unknown.join(', ')}` });
        return z.NEVER;
      }
      return types as EventType[];
    }),
}));

const failure = /* @__PURE__ */ schema(() => z.object({ event_id: z.string(), failed_at: timestamp, attempts: integerId, last_status: integerId.nullable() }));

export const webhookEndpointResponse = /* @__PURE__ */ schema(() => named(
  'WebhookEndpoint',
  z.object({
    webhook_endpoint: z.object({
      id: z.string(),
      url: z.string(),
      events: z.array(z.enum(EVENT_TYPES)),
      secret: z.string().optional().describe('Only in the answers that make it (create, roll): store it then.'),
      created_at: timestamp,
      failed_deliveries: integerId.describe('Deliveries given up after 7 days of retries'),
      last_failure: failure.nullable(),
    }),
  }),
));

export const webhookEndpointList = /* @__PURE__ */ schema(() => z.array(webhookEndpointResponse));

export const replayResponse = /* @__PURE__ */ schema(() => z.object({
  replay: z.object({ id: z.string(), webhook_endpoint_id: z.string(), after: z.string(), queued: integerId.describe('Deliveries queued') }),
}));

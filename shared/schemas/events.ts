/** Events and webhook endpoints (docs/events.md): the catalogue's types and the requests (answers: shared/schemas/responses/events.ts). */
import * as z from '#shared/schemas/zod.ts';
import { EVENT_TYPES, type EventType } from './vocabularies.ts';

export { EVENT_TYPES, type EventType } from './vocabularies.ts';

/** `evt_`, 9 base-36 digits of the instant in ms, 16 hex digits (ids sort by time). */
export const EVENT_ID_PATTERN = /^evt_[0-9a-z]{9}[0-9a-f]{16}$/;
const eventId = z.string().check(z.regex(EVENT_ID_PATTERN, 'is not an event id'));

/** POST /v15/webhook_endpoints */
export const webhookEndpointBody = z.object({
  webhook_endpoint: z.object({
    url: z.string().check(z.minLength(1), z.maxLength(2048)),
    events: z.array(z.enum(EVENT_TYPES)).check(z.minLength(1), z.maxLength(EVENT_TYPES.length * 2)),
  }),
});

export const webhookEndpointParams = z.object({ id: z.string().check(z.regex(/^we_[0-9a-f]{32}$/)) });

/** POST /v15/webhook_endpoints/:id/replays */
export const replayBody = z.object({ replay: z.object({ after: eventId }) });

/** GET /v15/events?after=<event id>&types=a,b */
export const eventsQuery = z.object({
  after: z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(eventId),
  ),
  types: z.pipe(
    z.optional(z.string().check(z.maxLength(1000))),
    z.transform((value, context) => {
      if (value === undefined || value.trim() === '') return undefined;
      const types = [
        ...new Set(
          value
            .split(',')
            .map((type) => type.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
      if (unknown.length > 0) {
        context.issues.push({ code: 'custom', message: `are not event types: ${unknown.join(', ')}`, input: context.value });
        return z.NEVER;
      }
      return types as EventType[];
    }),
  ),
});

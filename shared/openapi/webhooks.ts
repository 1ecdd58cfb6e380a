/**
 * The document's OAS 3.1 `webhooks` section (docs/events.md, docs/openapi.md): one entry per event type of the
 * catalogue (shared/domain/events/catalogue.ts), its body the type's own event shape (shared/schemas/responses/event-shapes.ts,
 * the schema `GET /v15/events` answers are checked against), a real payload as its example and the headers every
 * delivery carries.
 *
 * The examples are events the API stored and listed in the test suite (test/fixtures/event-examples.json, recorded
 * by test/support/event-examples.ts); the header examples are computed over the `order.completed` one the way a
 * delivery signs (shared/domain/events/signature.ts, the `standardwebhooks` package).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { EVENT_AUDIENCE, EVENT_TYPES, type EventType } from '#shared/domain/events/catalogue.ts';
import { DELIVERY_TIMEOUT_MS, GIVE_UP_AFTER_SECONDS, JITTER_FRACTION, RETRY_SCHEDULE_SECONDS } from '#shared/domain/events/delivery.ts';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, signatureHeader } from '#shared/domain/events/signature.ts';
import { EVENT_ID_PATTERN } from '#shared/schemas/events.ts';

type JsonObject = Record<string, unknown>;

export const EVENT_EXAMPLES_FIXTURE = join(fileURLToPath(new URL('../../', import.meta.url)), 'test/fixtures/event-examples.json');

/** The tag the webhooks are listed under. */
export const WEBHOOKS_TAG = 'Webhooks';

/** A fixed secret for the header examples: `whsec_` and the base64 of 32 bytes, the form endpoints are given. */
const EXAMPLE_SECRET = `whsec_${createHash('sha256').update('docs/openapi.json example secret').digest('base64')}`;

interface RecordedEvent {
  event: { id: string; type: string; created_at: string };
}

/** One recorded event per catalogued type; a type without one fails the build (and so the suite). */
export function eventExamples(): Record<EventType, RecordedEvent> {
  const recorded = JSON.parse(readFileSync(EVENT_EXAMPLES_FIXTURE, 'utf8')) as Record<string, RecordedEvent>;
  const missing = EVENT_TYPES.filter((type) => recorded[type]?.event.type !== type);
  if (missing.length > 0) {
    throw new Error(
      `test/fixtures/event-examples.json has no recorded ${missing.join(', ')} event: record one (test/support/event-examples.ts) for the webhooks section`,
    );
  }
  return recorded;
}

/** The delivery headers, as shared parameter components, each with a value a real delivery of `example` carries. */
function headerParameters(example: RecordedEvent): Record<string, JsonObject> {
  const body = JSON.stringify(example);
  const timestamp = Math.floor(Date.parse(example.event.created_at) / 1000);
  const standardSignature = new Webhook(EXAMPLE_SECRET).sign(example.event.id, new Date(timestamp * 1000), body);
  const header = (name: string, description: string, pattern: RegExp, value: string): JsonObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string', pattern: pattern.source },
    example: value,
  });
  return {
    LevelUpSignature: header(
      SIGNATURE_HEADER,
      `\`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>\`, one \`v1=\` per secret valid at the time (two while a rolled secret overlaps; either verifying is enough). Compare in constant time and reject a \`t\` more than ${SIGNATURE_TOLERANCE_SECONDS} seconds away. The example signs the \`order.completed\` example with the secret \`${EXAMPLE_SECRET}\`.`,
      /^t=\d+(,v1=[0-9a-f]{64})+$/,
      signatureHeader([EXAMPLE_SECRET], timestamp, body),
    ),
    LevelUpEventId: header('LevelUp-Event-Id', "The event's id (the body's `event.id`).", EVENT_ID_PATTERN, example.event.id),
    WebhookId: header(
      'webhook-id',
      "Standard Webhooks: the message id, here the event's id, the same on every retry and replay of the event: dedupe by it.",
      EVENT_ID_PATTERN,
      example.event.id,
    ),
    WebhookTimestamp: header(
      'webhook-timestamp',
      `Standard Webhooks: when this attempt was signed, in unix seconds; reject one more than ${SIGNATURE_TOLERANCE_SECONDS} seconds away.`,
      /^\d+$/,
      String(timestamp),
    ),
    WebhookSignature: header(
      'webhook-signature',
      'Standard Webhooks: `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>`, one per secret valid at the time, space-separated; the key is the bytes the `whsec_` secret encodes. Any Standard Webhooks library verifies it. The example signs the `order.completed` example with the secret of the `LevelUp-Signature` example.',
      /^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$/,
      standardSignature,
    ),
  };
}

function retrySchedule(): string {
  const wait = (seconds: number) => (seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);
  const waits = RETRY_SCHEDULE_SECONDS.map(wait);
  return `${waits.slice(0, -1).join(', ')}, then every ${waits.at(-1)!}`;
}

/**
 * The `webhooks` section and the parameter components its entries refer to. `bodySchema(type)` is the JSON
 * Schema of the delivered body, `{"event": <the type's shape>}`, converted with the document's other schemas.
 */
export function webhooksSection(bodySchema: (type: EventType) => JsonObject): { webhooks: Record<string, JsonObject>; parameters: Record<string, JsonObject> } {
  const examples = eventExamples();
  const parameters = headerParameters(examples['order.completed']);
  const webhooks: Record<string, JsonObject> = {};
  for (const type of EVENT_TYPES) {
    const audience = EVENT_AUDIENCE[type];
    webhooks[type] = {
      post: {
        operationId: `webhook-${type}`,
        summary: `${type} event`,
        description: [
          `POSTed to each webhook endpoint of the ${audience} that subscribed to \`${type}\` (\`POST /v15/webhook_endpoints\`), with the same body \`GET /v15/events\` lists. Delivery is at least once, in sequence per resource: dedupe by \`event.id\`.`,
          `Verify either signature (\`${SIGNATURE_HEADER}\`, or the Standard Webhooks \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) over the raw body before parsing it.`,
        ].join('\n\n'),
        tags: [WEBHOOKS_TAG],
        security: [],
        parameters: Object.keys(parameters).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: bodySchema(type),
              examples: { recorded: { summary: `Recorded: a \`${type}\` event as the API delivered it`, value: examples[type] } },
            },
          },
        },
        responses: {
          '200': { description: `Any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s: delivered. The answer's body is not read.` },
          default: {
            description: `Anything else (another status, a timeout, a redirect, an unreachable host) is retried after ${retrySchedule()}, each plus up to ${JITTER_FRACTION * 100} % jitter, until an attempt fails ${GIVE_UP_AFTER_SECONDS / 86_400} days after the delivery was queued: then it is counted on the endpoint as failed (\`failed_deliveries\`, \`last_failure\`).`,
          },
        },
      },
    };
  }
  return { webhooks, parameters };
}

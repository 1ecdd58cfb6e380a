/**
 * The document's `webhooks` section (shared/openapi/webhooks.ts): one entry per event type of the catalogue, its
 * body the type's own shape with a recorded payload that fits it, and the headers a delivery carries, whose
 * examples verify the way a receiver verifies them.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_TYPES } from '#shared/domain/events/catalogue.ts';
import { SIGNATURE_HEADER, verifySignature } from '#shared/domain/events/signature.ts';
import { buildDocument, type OpenApiDocument } from '#shared/openapi/document.ts';
import { compileDocumentSchema, documentAjv } from './response-validator.ts';

type JsonObject = Record<string, any>;

let document: OpenApiDocument;

beforeAll(async () => {
  document = await buildDocument();
});

afterEach(() => {
  vi.useRealTimers();
});

const bodyOf = (type: string): { schema: JsonObject; example: { event: { id: string; type: string } } } => {
  const media = document.webhooks[type]!.post.requestBody.content['application/json'] as JsonObject;
  return { schema: media.schema as JsonObject, example: media.examples.recorded.value };
};

/** The delivery headers an entry declares, by name, with their example values. */
function headersOf(type: string): Record<string, JsonObject> {
  const parameters = (document.webhooks[type]!.post.parameters as { $ref: string }[]).map(
    ({ $ref }) => document.components.parameters[$ref.replace('#/components/parameters/', '')] as JsonObject,
  );
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
}

describe('the webhooks section', () => {
  it('has exactly one entry per event type of the catalogue, each a POST', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) expect(Object.keys(document.webhooks[type]!)).toEqual(['post']);
  });

  it("describes each type's body with the type's own event shape, which its recorded example fits and no other type's does", () => {
    const ajv = documentAjv(document);
    const eventUnion = (document.components.schemas.Event as JsonObject).properties.event.oneOf as object[];
    for (const type of EVENT_TYPES) {
      const { schema, example } = bodyOf(type);
      // The event is a shared component, the one the Event union lists for this type.
      const shape = (schema.properties.event.$ref as string).replace('#/components/schemas/', '');
      expect(document.components.schemas[shape].properties.type.const, type).toBe(type);
      expect(eventUnion).toContainEqual({ $ref: schema.properties.event.$ref });
      expect(example.event.type).toBe(type);
      const validate = compileDocumentSchema(ajv, schema);
      expect(validate(example), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      for (const other of EVENT_TYPES.filter((candidate) => candidate !== type)) expect(validate(bodyOf(other).example), `${other} as ${type}`).toBe(false);
      // The same body fits the list's Event schema, which GET /v15/events answers are checked against.
      expect(compileDocumentSchema(ajv, { $ref: '#/components/schemas/Event' })(example)).toBe(true);
    }
  });

  it('declares the delivery headers: LevelUp-Signature and the three Standard Webhooks ones, all required', () => {
    for (const type of EVENT_TYPES) {
      const headers = headersOf(type);
      expect(Object.keys(headers).sort()).toEqual([SIGNATURE_HEADER, 'LevelUp-Event-Id', 'webhook-id', 'webhook-signature', 'webhook-timestamp'].sort());
      for (const header of Object.values(headers)) {
        expect(header).toMatchObject({ in: 'header', required: true });
        expect(header.example, header.name).toMatch(new RegExp(header.schema.pattern));
      }
    }
  });

  it("gives header examples that verify over the order.completed example, as a receiver's check and the standardwebhooks verifier do", () => {
    const headers = headersOf('order.completed');
    const body = JSON.stringify(bodyOf('order.completed').example);
    const secret = /`(whsec_[A-Za-z0-9+/=]+)`/.exec(headers[SIGNATURE_HEADER]!.description as string)![1]!;
    const timestamp = Number(headers['webhook-timestamp']!.example);
    expect(verifySignature(headers[SIGNATURE_HEADER]!.example as string, body, secret, timestamp)).toBe(true);
    expect(verifySignature(headers[SIGNATURE_HEADER]!.example as string, `${body} `, secret, timestamp)).toBe(false);
    // The verifier refuses a timestamp far from now: check at the moment the example was signed.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(timestamp * 1000);
    const standard = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, headers[name]!.example as string]));
    expect(new Webhook(secret).verify(body, standard)).toEqual(JSON.parse(body));
    expect(standard['webhook-id']).toBe(bodyOf('order.completed').example.event.id);
    expect(() => new Webhook(secret).verify(body.replace('order.completed', 'order.refunded'), standard)).toThrow();
  });
});

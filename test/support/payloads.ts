import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** A real client's request/response file from test/fixtures/client-payloads (envelope described in each file). */
export function clientPayload(name: string): any {
  return JSON.parse(readFileSync(new URL(`../fixtures/client-payloads/${name}`, import.meta.url), 'utf8'));
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Every field of `reference` (a client's fixture) is in `actual` with the same JSON type, recursively
 * (each array element against the reference's first element). A null in the reference accepts anything (the
 * client reads the field as optional); `nullable` names the paths (`$.order.conveyance.desired_ready_time`,
 * `$.items[].item.special_instructions`) the reference documents as "value or null"; `maps` the paths of
 * free-form maps (only their kind is checked).
 */
export function expectShapeOf(actual: unknown, reference: unknown, options: { nullable?: readonly string[]; maps?: readonly string[] } = {}, path = '$'): void {
  if (reference === null || (actual === null && options.nullable?.includes(path))) return;
  expect(kind(actual), path).toBe(kind(reference));
  if (Array.isArray(reference)) {
    if (reference.length === 0) return;
    for (const element of actual as unknown[]) expectShapeOf(element, reference[0], options, `${path}[]`);
    return;
  }
  // A free-form map (nutrition, metadata): its keys are the merchant's, only its kind is the client's.
  if (typeof reference === 'object' && !options.maps?.includes(path)) {
    for (const [name, value] of Object.entries(reference as Record<string, unknown>)) {
      expect(actual as object, `${path}.${name}`).toHaveProperty([name]);
      expectShapeOf((actual as Record<string, unknown>)[name], value, options, `${path}.${name}`);
    }
  }
}

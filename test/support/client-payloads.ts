import { readFileSync } from 'node:fs';

/**
 * Real client bodies kept as data under test/fixtures/client-payloads/ (see its README): what the
 * LevelUp SDKs and docs send and parse, one call per file, with `request_body` (or
 * `request_body_template`), `response_status`, `response_body` and, for some, `errors`.
 */
export function clientPayload(name: string): any {
  return JSON.parse(readFileSync(new URL(`../fixtures/client-payloads/${name}`, import.meta.url), 'utf8'));
}

/** Keys of an object, sorted (to compare the fields a client reads with what we answer). */
export const keysOf = (value: object) => Object.keys(value).sort();

/** Every key the reference body has is in ours too (a client maps those fields). */
export function missingKeys(reference: object, actual: object): string[] {
  return keysOf(reference).filter((key) => !(key in actual));
}

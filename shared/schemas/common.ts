import * as z from 'zod';
import { API_DATETIME_PATTERN } from '#shared/time.ts';
import { named, schema } from './registry.ts';

/** Integer ids (DynamoDB atomic counters), always within the safe-integer range. */
export const integerId = /* @__PURE__ */ schema(() => z.number().int());
/** Amounts are integers in cents. */
export const cents = /* @__PURE__ */ schema(() => z.number().int().describe('Amount in cents'));
/**
 * ISO 8601 date and time to the second with a numeric offset (`2015-01-22T16:29:22+00:00`, what
 * shared/time.ts writes). The pattern makes the OpenAPI document, and so the suite's validation of
 * every response, hold each timestamp to the contract's `YYYY-MM-DDThh:mm:ss±hh:mm`. Named, so the
 * document states the pattern once and references it (the document is bundled into openapi-show).
 */
export const timestamp = /* @__PURE__ */ schema(() => named(
  'Timestamp',
  z.string().regex(API_DATETIME_PATTERN).meta({ format: 'date-time' }),
  'ISO 8601 date and time to the second with a numeric UTC offset: `2015-01-22T16:29:22+00:00`. Requests may send `Z`, any offset or fractional seconds.',
));
/**
 * A decimal input kept to `places` decimal places. DynamoDB stores numbers between 1e-130 and 1e126 in
 * magnitude only: a denormal such as 5e-324 (valid JSON, within any range check) failed the write with a 500.
 * Rounded, it is 0, and every stored value is one DynamoDB can hold and one the client meant.
 */
export function roundedDecimal(places: number) {
  const scale = 10 ** places;
  // `+ 0` turns -0 into 0.
  return z.number({ error: 'must be a number' }).transform((value) => Math.round(value * scale) / scale + 0);
}

/**
 * An order's integer `id`: within 32 bits, as LevelUp's C# SDK reads it (`int`, issue 34.11). Orders are found by
 * uuid; this id is only shown.
 */
export const orderIntegerId = /* @__PURE__ */ schema(() => z.number().int().min(1).max(2 ** 31 - 1).meta({ format: 'int32' }).describe("The order's integer id, below 2^31 (clients read it as a 32-bit int); orders are addressed by uuid"));

export const uuid = /* @__PURE__ */ schema(() => z.string().min(1));
export const url = /* @__PURE__ */ schema(() => z.string().url());
/** A link a client follows as given (issue 34.6): absolute http(s), never `""` or a path. Nullable where there may be none. */
export const absoluteUrl = /* @__PURE__ */ schema(() => z.string().regex(/^https?:\/\/[^\s]+$/).meta({ format: 'uri' }));

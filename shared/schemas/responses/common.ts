/** Building blocks of the answers: ids, amounts, timestamps, links. */
import * as z from '#shared/schemas/zod.ts';
import { API_DATETIME_PATTERN } from '#shared/time.ts';
import { named } from './registry.ts';

/** Integer ids (DynamoDB atomic counters), always within the safe-integer range. */
export const integerId = z.number().check(z.int());
/** Amounts are integers in cents. */
export const cents = z.number().check(z.int(), z.describe('Amount in cents'));
/**
 * ISO 8601 date and time to the second with a numeric offset (`2015-01-22T16:29:22+00:00`, what
 * shared/time.ts writes). The pattern makes the OpenAPI document, and so the suite's validation of
 * every response, hold each timestamp to the contract's `YYYY-MM-DDThh:mm:ss±hh:mm`. Named, so the
 * document states the pattern once and references it (the document is bundled into openapi-show).
 */
export const timestamp = named(
  'Timestamp',
  z.string().check(z.regex(API_DATETIME_PATTERN), z.meta({ format: 'date-time' })),
  'ISO 8601 date and time to the second with a numeric UTC offset: `2015-01-22T16:29:22+00:00`. Requests may send `Z`, any offset or fractional seconds.',
);

/**
 * An order's integer `id`: within 32 bits, as LevelUp's C# SDK reads it (`int`, issue 34.11). Orders are found by
 * uuid; this id is only shown.
 */
export const orderIntegerId = z
  .number()
  .check(
    z.int(),
    z.gte(1),
    z.lte(2 ** 31 - 1),
    z.meta({ format: 'int32' }),
    z.describe("The order's integer id, below 2^31 (clients read it as a 32-bit int); orders are addressed by uuid"),
  );

export const uuid = z.string().check(z.minLength(1));
export const url = z.string().check(z.url());
/** A link a client follows as given (issue 34.6): absolute http(s), never `""` or a path. Nullable where there may be none. */
export const absoluteUrl = z.string().check(z.regex(/^https?:\/\/[^\s]+$/), z.meta({ format: 'uri' }));

import * as z from '#shared/schemas/zod.ts';
import { FULFILLMENT_TYPES, type FulfillmentType } from './vocabularies.ts';

export { FULFILLMENT_TYPES, type FulfillmentType } from './vocabularies.ts';

/** `fulfillment_types` in a query string: comma-separated, any case; empty is not given. */
export const fulfillmentTypesList = z.pipe(
  z
    .pipe(
      z.string(),
      z.transform((value) =>
        value
          .split(',')
          .map((type) => type.trim().toLowerCase())
          .filter((type) => type !== ''),
      ),
    )
    .check(
      z.refine(
        (types) => types.every((type) => (FULFILLMENT_TYPES as readonly string[]).includes(type)),
        'must be a comma-separated list of delivery, in_store, pickup',
      ),
    ),
  z.transform((types) => (types.length > 0 ? [...new Set(types)] : undefined) as FulfillmentType[] | undefined),
);

/** The contract's error body, as the document shows every 4xx and 5xx (shared/errors.ts writes it). */
import * as z from '#shared/schemas/zod.ts';
import { named } from './registry.ts';

export const errorDetail = named(
  'ErrorDetail',
  z.object({
    object: z.string().check(z.describe('The resource (usually the request wrapper key) the error is about')),
    property: z.string().check(z.describe('The field, or `base` for the resource as a whole')),
    message: z.string(),
    code: z.optional(z.string()).check(z.describe('Stable machine-readable code')),
  }),
);

/** The contract's error body: a JSON array of `{"error": {...}}`. */
export const apiErrors = named(
  'Errors',
  z.array(z.object({ error: errorDetail })).check(z.minLength(1)),
  'Error body of every 4xx and 5xx answered by this service: a JSON array of wrapped error details.',
);

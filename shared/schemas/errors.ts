import * as z from 'zod';
import { named, schema } from './registry.ts';

export const errorDetail = /* @__PURE__ */ schema(() => named(
  'ErrorDetail',
  z.object({
    object: z.string().describe('The resource (usually the request wrapper key) the error is about'),
    property: z.string().describe('The field, or `base` for the resource as a whole'),
    message: z.string(),
    code: z.string().optional().describe('Stable machine-readable code'),
  }),
));

/** The contract's error body: a JSON array of `{"error": {...}}`. */
export const apiErrors = /* @__PURE__ */ schema(() => named(
  'Errors',
  z.array(z.object({ error: errorDetail })).min(1),
  'Error body of every 4xx and 5xx answered by this service: a JSON array of wrapped error details.',
));

import * as z from 'zod';
import { schema } from './registry.ts';

/**
 * Path and query parameter schemas shared by handlers. Path parameters that fail their schema answer
 * 404 with an empty body (shared/http/handler.ts): a path that cannot name a resource is not found.
 */

/** A numeric id in a path (`/v15/campaigns/{id}`). */
export const pathId = /* @__PURE__ */ schema(() => z.string().regex(/^[1-9]\d{0,14}$/).transform(Number));

/** Query values arrive as strings; an empty one (`page=`) counts as not given. */
export const optionalQuery = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const decimalQuery = (message = 'must be a number') =>
  z
    .string()
    .trim()
    .regex(/^[-+]?(\d+\.?\d*|\.\d+)$/, message)
    .transform(Number);

export const latitudeQuery = /* @__PURE__ */ schema(() => decimalQuery().pipe(z.number().min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90')));
export const longitudeQuery = /* @__PURE__ */ schema(() => decimalQuery().pipe(z.number().min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180')));

/** lat and lng come together or not at all. */
export function requireLatLngTogether(query: { lat?: number; lng?: number }, context: z.core.$RefinementCtx): void {
  if ((query.lat === undefined) !== (query.lng === undefined)) {
    const missing = query.lat === undefined ? 'lat' : 'lng';
    context.addIssue({ code: 'custom', path: [missing], message: `is required together with ${missing === 'lat' ? 'lng' : 'lat'}` });
  }
}

/** A true/false query flag (`transfer_supported=true`); `1`/`0` too. */
export const booleanQuery = /* @__PURE__ */ schema(() => z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).transform((value) => value === 'true' || value === '1'));

/** A whole number of 1 or more in a query string (`after`, `image[width]`). */
export const positiveInteger = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\+?\d+$/, message)
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value >= 1, message);

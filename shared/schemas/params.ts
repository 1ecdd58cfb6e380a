import * as z from '#shared/schemas/zod.ts';

/**
 * Path and query parameter schemas shared by handlers. Path parameters that fail their schema answer
 * 404 with an empty body (shared/http/inputs.ts): a path that cannot name a resource is not found.
 */

/** A numeric id in a path (`/v15/campaigns/{id}`). */
export const pathId = z.pipe(z.string().check(z.regex(/^[1-9]\d{0,14}$/)), z.transform(Number));

/** Query values arrive as strings; an empty one (`page=`) counts as not given. */
export const optionalQuery = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(schema),
  );

export const decimalQuery = (message = 'must be a number') =>
  z.pipe(z.string().check(z.trim(), z.regex(/^[-+]?(\d+\.?\d*|\.\d+)$/, message)), z.transform(Number));

export const latitudeQuery = z.pipe(decimalQuery(), z.number().check(z.gte(-90, 'must be between -90 and 90'), z.lte(90, 'must be between -90 and 90')));
export const longitudeQuery = z.pipe(decimalQuery(), z.number().check(z.gte(-180, 'must be between -180 and 180'), z.lte(180, 'must be between -180 and 180')));

/** lat and lng come together or not at all. */
export function requireLatLngTogether(query: { lat?: number; lng?: number }, context: z.core.$RefinementCtx): void {
  if ((query.lat === undefined) !== (query.lng === undefined)) {
    const missing = query.lat === undefined ? 'lat' : 'lng';
    context.addIssue({ code: 'custom', path: [missing], message: `is required together with ${missing === 'lat' ? 'lng' : 'lat'}` });
  }
}

/** A true/false query flag (`transfer_supported=true`); `1`/`0` too. */
export const booleanQuery = z.pipe(
  z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }),
  z.transform((value) => value === 'true' || value === '1'),
);

/** A whole number of 1 or more in a query string (`after`, `image[width]`). */
export const positiveInteger = (message: string) =>
  z
    .pipe(z.string().check(z.trim(), z.regex(/^\+?\d+$/, message)), z.transform(Number))
    .check(z.refine((value) => Number.isSafeInteger(value) && value >= 1, message));

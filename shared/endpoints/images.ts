import * as z from '#shared/schemas/zod.ts';
import { notFound } from '#shared/errors.ts';
import { decimalQuery } from '#shared/schemas/params.ts';
import { SIGNED_URL_SECONDS, imageLocation, type ImageSubject } from '#shared/domain/app-surface/images.ts';
import type { ApiResponse } from '#shared/http/handler.ts';

/**
 * The image routes (A23-A25, O2): `density`, `width` and `height` are required (422 when missing or not
 * numbers); a size or density the kind does not document, or a subject without an uploaded image, is 404
 * with an empty body; otherwise 302 to a signed URL of that variant.
 */
const dimension = z.pipe(z.string().check(z.trim(), z.regex(/^\d{1,5}$/, 'must be a whole number of pixels')), z.transform(Number));

export const imageQuery = z.object({
  density: z.pipe(decimalQuery('must be a number'), z.number().check(z.positive('must be greater than 0'), z.lte(10, 'must be at most 10'))),
  width: dimension,
  height: dimension,
});

export async function redirectToImage(subject: ImageSubject, query: z.output<typeof imageQuery>): Promise<ApiResponse> {
  const location = await imageLocation(subject, query);
  if (!location) throw notFound();
  // Clients may keep the redirect while the signed URL is surely valid.
  return { status: 302, headers: { Location: location, 'Cache-Control': `private, max-age=${Math.floor(SIGNED_URL_SECONDS / 3)}` } };
}

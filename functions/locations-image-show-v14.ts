import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { imageQuery, redirectToImage } from '#shared/endpoints/images.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ location_id: pathId });

/** GET /v14/locations/{location_id}/image — no credential. A25 (v14, what iOS and Android call): a location's image. shared/endpoints/images.ts says what each answer means. */
export const handler = apiHandler('locations-image-show-v14', { summary: 'Redirect to an image', params, query: imageQuery }, async (request) =>
  redirectToImage({ kind: 'location', locationId: request.params.location_id }, request.query),
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { imageQuery, redirectToImage } from '#shared/endpoints/images.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ id: pathId });

/** GET /v14/campaigns/{id}/image — no credential. A23: a campaign's image (320x212 at densities 1, 1.5, 2). shared/endpoints/images.ts says what each answer means. */
export const handler = apiHandler('campaigns-image-show', { summary: 'Redirect to an image', params, query: imageQuery }, async (request) =>
  redirectToImage({ kind: 'campaign-image', campaignId: request.params.id }, request.query),
);

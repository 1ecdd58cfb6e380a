import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { imageQuery, redirectToImage } from '#shared/endpoints/images.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ id: pathId });

/** GET /v15/campaigns/{id}/icon — no credential. A24: a campaign's reward icon (200, 100, 50, 48, 32 or 26 square at densities 1, 1.5, 2, 3, 4). shared/endpoints/images.ts says what each answer means. */
export const handler = apiHandler('campaigns-icon-show', { summary: 'Redirect to an image', params, query: imageQuery }, async (request) =>
  redirectToImage({ kind: 'campaign-icon', campaignId: request.params.id }, request.query),
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';
import { campaignRepresentation, REPRESENTATION_TYPES } from '#shared/domain/loyalty/representations.ts';

/**
 * GET /v15/campaigns/{id}/{representation_type}: the campaign in that representation with the user's
 * own progress. Unknown ids or types, and campaigns that cannot be displayed to this user, are 404 with
 * an empty body (docs/loyalty.md lists which representation applies to which campaign kind).
 */
const params = z.object({ id: pathId, representation_type: z.enum(REPRESENTATION_TYPES) });

export const handler = apiHandler('campaigns-show', { summary: 'Get campaign details in a representation', params }, async (request) => {
  const user = requireUser(request);
  const body = await campaignRepresentation(request.params.id, request.params.representation_type, { userId: user.userId, appId: user.appId });
  if (!body) throw notFound();
  return ok(body);
});

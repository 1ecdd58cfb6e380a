import * as z from 'zod';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { campaignRepresentation, REPRESENTATION_TYPES } from '#shared/domain/loyalty/representations.ts';
import { campaignResponse } from '#shared/schemas/loyalty.ts';

/**
 * GET /v15/campaigns/{id}/{representation_type}: the campaign in that representation with the user's
 * own progress. Unknown ids or types, and campaigns that cannot be displayed to this user, are 404 with
 * an empty body (docs/loyalty.md lists which representation applies to which campaign kind).
 */
const params = z.object({ id: z.string(), representation_type: z.string() });
const campaignId = z.string().regex(/^\d{1,15}$/).transform(Number);
const representationType = z.enum(REPRESENTATION_TYPES);

export const handler = apiHandler('campaigns-show', { responses: { 200: campaignResponse }, summary: 'Get campaign details in a representation', params }, async (request) => {
  const user = requireUser(request);
  // Checked here rather than by the params schema: the contract's 404 for these has no body.
  const id = campaignId.safeParse(request.params.id);
  const type = representationType.safeParse(request.params.representation_type);
  if (!id.success || !type.success) throw notFound();
  const body = await campaignRepresentation(id.data, type.data, { userId: user.userId, appId: user.appId });
  if (!body) throw notFound();
  return ok(body);
});

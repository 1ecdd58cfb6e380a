import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { notFound } from '#shared/errors.ts';
import { getContributionTarget, serializeContributionTarget } from '#shared/domain/pos/contribution-targets.ts';
import { pathId } from '#shared/schemas/params.ts';

const params = z.object({ id: pathId });

/** GET /v14/contributions/targets/:id — no credential: one contribution target; unknown is 404 (empty). */
export const handler = apiHandler('contribution-targets-show', { summary: 'Get a contribution target', params }, async (request) => {
  const target = await getContributionTarget(request.params.id);
  if (!target) throw notFound();
  return ok(serializeContributionTarget(target));
});

import { apiHandler, ok } from '#shared/http/handler.ts';
import { listContributionTargets, serializeContributionTarget } from '#shared/domain/pos/contribution-targets.ts';

/** GET /v14/contributions/targets — no credential: every contribution target, in id order (not paged; at most 100). */
export const handler = apiHandler('contribution-targets-list', { summary: 'List contribution targets' }, async () => {
  return ok((await listContributionTargets()).map(serializeContributionTarget));
});

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { claimByCohortCode, NOT_A_VALID_CODE } from '#shared/domain/loyalty/claims.ts';

/** POST /v15/codes/{cohort_code}/claims (no body): claims the campaign the code names, once per user. */
const params = z.object({ cohort_code: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

export const handler = apiHandler('code-claims-create', { notFound: NOT_A_VALID_CODE, summary: 'Claim a campaign by cohort code', params }, async (request) => {
  const user = requireUser(request);
  return ok(await claimByCohortCode({ userId: user.userId, appId: user.appId }, request.params.cohort_code));
});

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { setRewardPaused } from '#shared/domain/loyalty/rewards.ts';

/** DELETE /v15/rewards/{reward_id}/pause: the reward is applied automatically again. Idempotent; 200 with the reward. */
/** Any id: one that is not a reward id is simply not found (404, empty body). */
const params = z.object({ reward_id: z.string() });

export const handler = apiHandler('rewards-unpause', { summary: 'Unpause a reward', params }, async (request) => {
  const user = requireUser(request);
  return ok(await setRewardPaused(user.userId, request.params.reward_id, false));
});

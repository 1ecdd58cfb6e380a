import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { setRewardPaused } from '#shared/domain/loyalty/rewards.ts';

/**
 * PUT /v15/rewards/{reward_id}/pause: pauses a reward the user holds so it is not applied automatically
 * (its value leaves the credit balance that discounts draw on). Idempotent; 200 with the reward.
 * DELETE on the same path unpauses (rewards-unpause.ts).
 */
/** Any id: one that is not a reward id is simply not found (404, empty body). */
const params = z.object({ reward_id: z.string() });

export const handler = apiHandler('rewards-pause', { summary: 'Pause a reward', params }, async (request) => {
  const user = requireUser(request);
  return ok(await setRewardPaused(user.userId, request.params.reward_id, true));
});

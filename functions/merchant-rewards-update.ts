import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { setRewardPaused } from '#shared/domain/loyalty/rewards.ts';
import { rewardPauseBody } from '#shared/schemas/loyalty.ts';
import { pathId } from '#shared/schemas/params.ts';

/**
 * PUT /v15/merchants/{merchant_id}/rewards/{claim_id} `{"reward": {"paused": bool}}`: the documented pause and
 * unpause (PUT/DELETE /v15/rewards/{id}/pause stay as aliases). A reward the user does not hold at this merchant is 404.
 */
const params = z.object({ merchant_id: pathId, claim_id: z.string() });

export const handler = apiHandler(
  'merchant-rewards-update',
  { summary: 'Pause or unpause a reward', params, body: rewardPauseBody, bodyObject: 'reward' },
  async (request) => ok(await setRewardPaused(requireUser(request).userId, request.params.claim_id, request.body.reward.paused, request.params.merchant_id)),
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { setLocationRewardPaused } from '#shared/domain/loyalty/rewards.ts';
import { rewardPauseBody } from '#shared/schemas/loyalty.ts';
import { pathId } from '#shared/schemas/params.ts';

/** PUT /v15/locations/{location_id}/rewards/{claim_id}: the merchant path's pause, naming the merchant by one of its locations. */
const params = z.object({ location_id: pathId, claim_id: z.string() });

export const handler = apiHandler(
  'location-rewards-update',
  { summary: 'Pause or unpause a reward (location path)', params, body: rewardPauseBody, bodyObject: 'reward' },
  async (request) =>
    ok(await setLocationRewardPaused(requireUser(request).userId, request.params.location_id, request.params.claim_id, request.body.reward.paused)),
);

/**
 * The rewards at a location (functions/location-rewards-list.ts, functions/location-reward-summary-show.ts):
 * both name the location in the path and read it beside the token's read.
 */
import * as z from '#shared/schemas/zod.ts';
import { readRewardsLocation } from '#shared/domain/loyalty/rewards.ts';
import { readByRawId, type RawRequest } from '#shared/http/handler.ts';
import { pathId } from '#shared/schemas/params.ts';

export const rewardsLocationSpec = {
  params: z.object({ location_id: pathId }),
  // The location, read as the path names it (HandlerSpec.prefetch); the domain checks it once the token is admitted.
  prefetch: ({ params }: RawRequest) => readByRawId(params.location_id, readRewardsLocation),
};

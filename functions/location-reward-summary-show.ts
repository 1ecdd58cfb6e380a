import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { rewardsLocationSpec } from '#shared/endpoints/location-rewards.ts';
import { booleanQuery, optionalQuery } from '#shared/schemas/params.ts';
import { locationRewardSummary } from '#shared/domain/loyalty/rewards.ts';

/** GET /v15/locations/{location_id}/reward_summary: totals of the user's rewards at the location (zeros without a token). */
const query = z.object({ transfer_supported: optionalQuery(booleanQuery) });
export const handler = apiHandler(
  'location-reward-summary-show',
  {
    summary: "Totals of a user's rewards at a location",
    query,
    ...rewardsLocationSpec,
  },
  async (request) =>
    ok(
      await locationRewardSummary(request.params.location_id, request.credentials.user?.userId, request.query.transfer_supported ?? false, request.prefetched),
    ),
);

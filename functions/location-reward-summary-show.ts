import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, readByRawId } from '#shared/http/handler.ts';
import { booleanQuery, optionalQuery, pathId } from '#shared/schemas/params.ts';
import { locationRewardSummary, readRewardsLocation } from '#shared/domain/loyalty/rewards.ts';

/** GET /v15/locations/{location_id}/reward_summary: totals of the user's rewards at the location (zeros without a token). */
const query = z.object({ transfer_supported: optionalQuery(booleanQuery) });
const params = z.object({ location_id: pathId });

export const handler = apiHandler(
  'location-reward-summary-show',
  {
    summary: "Totals of a user's rewards at a location",
    query,
    params,
    // The location, read beside the token's read as the path names it (HandlerSpec.prefetch); locationRewardSummary checks it once the token is admitted.
    prefetch: ({ params: raw }) => readByRawId(raw.location_id, readRewardsLocation),
  },
  async (request) =>
    ok(
      await locationRewardSummary(request.params.location_id, request.credentials.user?.userId, request.query.transfer_supported ?? false, request.prefetched),
    ),
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, readByRawId } from '#shared/http/handler.ts';
import { booleanQuery, latitudeQuery, longitudeQuery, optionalQuery, pathId, requireLatLngTogether } from '#shared/schemas/params.ts';
import { listLocationRewards, readRewardsLocation } from '#shared/domain/loyalty/rewards.ts';

/**
 * GET /v15/locations/{location_id}/rewards ("rewards by location", iOS): the merchant rewards list of the
 * location's merchant, usable_now judged in the location's time zone. Without a token, what a new user gets.
 */
const query = z
  .object({ lat: optionalQuery(latitudeQuery), lng: optionalQuery(longitudeQuery), transfer_supported: optionalQuery(booleanQuery) })
  .check(z.superRefine(requireLatLngTogether));
const params = z.object({ location_id: pathId });

export const handler = apiHandler(
  'location-rewards-list',
  {
    summary: "List a user's rewards usable at a location",
    query,
    params,
    // The location, read beside the token's read as the path names it (HandlerSpec.prefetch); listLocationRewards checks it once the token is admitted.
    prefetch: ({ params: raw }) => readByRawId(raw.location_id, readRewardsLocation),
  },
  async (request) =>
    ok(
      await listLocationRewards(
        request.params.location_id,
        request.credentials.user?.userId,
        { lat: request.query.lat, lng: request.query.lng, transferSupported: request.query.transfer_supported ?? false },
        request.prefetched,
      ),
    ),
);

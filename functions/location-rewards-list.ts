import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { rewardsLocationSpec } from '#shared/endpoints/location-rewards.ts';
import { booleanQuery, latitudeQuery, longitudeQuery, optionalQuery, requireLatLngTogether } from '#shared/schemas/params.ts';
import { listLocationRewards } from '#shared/domain/loyalty/rewards.ts';

/**
 * GET /v15/locations/{location_id}/rewards ("rewards by location", iOS): the merchant rewards list of the
 * location's merchant, usable_now judged in the location's time zone. Without a token, what a new user gets.
 */
const query = z
  .object({ lat: optionalQuery(latitudeQuery), lng: optionalQuery(longitudeQuery), transfer_supported: optionalQuery(booleanQuery) })
  .check(z.superRefine(requireLatLngTogether));
export const handler = apiHandler(
  'location-rewards-list',
  {
    summary: "List a user's rewards usable at a location",
    query,
    ...rewardsLocationSpec,
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

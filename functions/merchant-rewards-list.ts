import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { booleanQuery, latitudeQuery, longitudeQuery, optionalQuery, pathId, requireLatLngTogether } from '#shared/schemas/params.ts';
import { listRewards } from '#shared/domain/loyalty/rewards.ts';

/**
 * GET /v15/merchants/{merchant_id}/rewards: with a user token that user's rewards at the merchant,
 * without one what a new user would see. lat/lng pick the nearest location's time zone for usable_now;
 * transfer_supported blank or false leaves out rewards that must be transferred.
 */
const query = z
  .object({
    lat: optionalQuery(latitudeQuery),
    lng: optionalQuery(longitudeQuery),
    transfer_supported: optionalQuery(booleanQuery),
  })
  .check(z.superRefine(requireLatLngTogether));

const params = z.object({ merchant_id: pathId });

export const handler = apiHandler('merchant-rewards-list', { summary: "List a user's rewards at a merchant", query, params }, async (request) => {
  const rewards = await listRewards(request.params.merchant_id, request.credentials.user?.userId, {
    lat: request.query.lat,
    lng: request.query.lng,
    transferSupported: request.query.transfer_supported ?? false,
  });
  return ok(rewards);
});

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { serializeSuggestion, suggestedOrders, SUGGESTION_TYPES, type SuggestionType } from '#shared/domain/order-ahead/suggestions.ts';
import { latitudeQuery, longitudeQuery, optionalQuery, pathId, requireLatLngTogether } from '#shared/schemas/params.ts';

/** `types=past,popular` (the iOS SDK sends `past` or nothing); unknown types are ignored, none given means all. */
const typesList = z.pipe(
  z.string().check(z.maxLength(200)),
  z.transform(
    (value) =>
      new Set(
        value
          .split(',')
          .map((type) => type.trim().toLowerCase())
          .filter((type): type is SuggestionType => (SUGGESTION_TYPES as readonly string[]).includes(type)),
      ),
  ),
);

const query = z
  .object({
    location_id: optionalQuery(pathId.check(z.describe('Only carts of this location (and its popular carts)'))),
    types: optionalQuery(typesList),
    lat: optionalQuery(latitudeQuery),
    lng: optionalQuery(longitudeQuery),
  })
  .check(z.superRefine(requireLatLngTogether));

/**
 * GET /v15/order_ahead/orders/suggested: up to 25 ready-to-send carts, the user's past ones (deduplicated,
 * most ordered first) then the location's popular ones, only those that still fit the current menu;
 * `walking_time_minutes` with lat and lng. An empty list is 200 `[]`.
 */
export const handler = apiHandler(
  'order-ahead-suggested-orders-list',
  { summary: 'List suggested order ahead orders (past and popular carts)', query },
  async (request) => {
    const user = requireUser(request);
    const types = request.query.types ?? new Set(SUGGESTION_TYPES);
    const near = request.query.lat !== undefined && request.query.lng !== undefined ? { lat: request.query.lat, lng: request.query.lng } : undefined;
    const suggestions = await suggestedOrders(user, { locationId: request.query.location_id, types, near });
    return ok(suggestions.map((suggestion) => serializeSuggestion(suggestion, request.baseUrl, near)));
  },
);

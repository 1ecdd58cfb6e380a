import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { deliveryLocationFor, serializeDeliveryLocation } from '#shared/domain/order-ahead/delivery.ts';
import { addressIdParams } from '#shared/schemas/addresses.ts';

/**
 * GET /v15/user_addresses/:id/delivery_location: the nearest of the app's locations whose delivery area
 * holds the user's saved address and that takes order-ahead orders; 404 (empty) when none does, and for
 * another user's address or one without coordinates.
 */
export const handler = apiHandler(
  'user-addresses-delivery-location-show',
  { summary: 'Show the location that delivers to a saved address', params: addressIdParams },
  async (request) => {
    const user = requireUser(request);
    return ok(serializeDeliveryLocation(await deliveryLocationFor(user, request.params.id), request.baseUrl));
  },
);

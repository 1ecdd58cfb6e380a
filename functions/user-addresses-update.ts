import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { serializeAddress, updateAddress } from '#shared/domain/identity/addresses.ts';
import { addressIdParams, updateAddressBody } from '#shared/schemas/addresses.ts';

/**
 * PUT /v15/user_addresses/{id}: another user's address is not found (404, empty body). A change that
 * moves the address re-geocodes it; one that keeps losing races to other changes of it is 409.
 */
export const handler = apiHandler(
  'user-addresses-update',
  { summary: 'Update a user address', body: updateAddressBody, bodyObject: 'user_address', params: addressIdParams },
  async (request) => {
    const principal = requireUser(request);
    const address = await updateAddress(principal.userId, request.params.id, request.body.user_address);
    return ok(serializeAddress(address));
  },
);

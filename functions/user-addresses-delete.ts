import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { deleteAddress, serializeAddress } from '#shared/domain/identity/addresses.ts';
import { addressIdParams } from '#shared/schemas/addresses.ts';

/** DELETE /v15/user_addresses/{id}: answers 200 with the deleted address, like credit card deletion. */
export const handler = apiHandler('user-addresses-delete', { summary: 'Delete a user address', params: addressIdParams }, async (request) => {
  const principal = requireUser(request);
  const address = await deleteAddress(principal.userId, request.params.id);
  return ok(serializeAddress(address));
});

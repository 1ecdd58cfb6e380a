import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { createAddress, serializeAddress } from '#shared/domain/identity/addresses.ts';
import { createAddressBody } from '#shared/schemas/addresses.ts';

/** POST /v15/user_addresses */
export const handler = apiHandler(
  'user-addresses-create',
  { summary: 'Create a user address', body: createAddressBody, bodyObject: 'user_address' },
  async (request) => {
    const principal = requireUser(request);
    const address = await createAddress(principal.userId, request.body.user_address);
    return ok(serializeAddress(address));
  },
);

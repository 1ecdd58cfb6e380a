import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { listAddresses, serializeAddress } from '#shared/domain/identity/addresses.ts';

/** GET /v15/user_addresses: the token's user's addresses by id. */
export const handler = apiHandler('user-addresses-list', { summary: "List the user's addresses" }, async (request) => {
  const principal = requireUser(request);
  const addresses = await listAddresses(principal.userId);
  return ok(addresses.map(serializeAddress));
});

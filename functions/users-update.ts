import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserWithTotals, serializeUser, updateUser } from '#shared/domain/identity/users.ts';
import { updateUserBody } from '#shared/schemas/users.ts';

/** PUT /v15/users: changes the token's user; only an unlimited (username-and-password) token may. A new password revokes the account's other tokens. */
export const handler = apiHandler('users-update', { summary: 'Update a user', body: updateUserBody, bodyObject: 'user' }, async (request) => {
  const principal = requireUser(request);
  const { new_password, password, ...changes } = request.body.user;
  const { user, totals } = await getUserWithTotals(principal.userId);
  const updated = await updateUser(user, principal.appId, { ...changes, password: password ?? new_password }, principal.tokenHash);
  return ok(serializeUser(updated, totals, principal.appId, 'v15'));
});

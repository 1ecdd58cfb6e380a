import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserOrUnauthorized, serializeUser } from '#shared/domain/users.ts';

/** GET /v15/users: the token's user, with the custom attributes of the token's app. */
export const handler = apiHandler('users-show', {}, async (request) => {
  const principal = requireUser(request);
  const user = await getUserOrUnauthorized(principal.userId);
  return ok(serializeUser(user, principal.appId, 'v15'));
});

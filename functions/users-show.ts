import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserWithTotals, serializeUser } from '#shared/domain/identity/users.ts';

/** GET /v15/users: the token's user, with the custom attributes of the token's app. */
export const handler = apiHandler('users-show', { summary: "Get the token's user" }, async (request) => {
  const principal = requireUser(request);
  const { user, totals } = await getUserWithTotals(principal.userId);
  return ok(serializeUser(user, totals, principal.appId, 'v15'));
});

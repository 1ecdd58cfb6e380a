import { apiHandler, ok } from '#shared/http/handler.ts';
import { appIdForApiKey } from '#shared/domain/identity/apps.ts';
import { createUser, serializeUser } from '#shared/domain/identity/users.ts';
import { NO_TOTALS } from '#shared/domain/identity/user-totals.ts';
import { createUserBody } from '#shared/schemas/users.ts';
import { invalidApiKey } from '#shared/errors.ts';

/** POST /v14/users: sign-up with the app's API key in the body. */
export const handler = apiHandler('users-create', { summary: 'Create a user', body: createUserBody, bodyObject: 'user' }, async (request) => {
  const appId = await appIdForApiKey(request.body.api_key);
  // 422, as the contract lists for this route: the mobile SDKs read a 401 as "log in again".
  if (appId === undefined) throw invalidApiKey('user');
  const user = await createUser(appId, request.body.user);
  return ok(serializeUser(user, NO_TOTALS, appId, 'v14'));
});

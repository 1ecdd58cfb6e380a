import { apiHandler, ok } from '#shared/http/handler.ts';
import { appIdForApiKey } from '#shared/domain/apps.ts';
import { createUser, serializeUser } from '#shared/domain/users.ts';
import { NO_TOTALS } from '#shared/domain/user-totals.ts';
import { createUserBody, userV14 } from '#shared/schemas/users.ts';
import { unauthorized } from '#shared/errors.ts';
import * as z from 'zod';
import { apiErrors } from '#shared/schemas/errors.ts';

/** POST /v14/users: sign-up with the app's API key in the body. */
export const handler = apiHandler('users-create', { responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: z.object({ user: userV14 }), 401: apiErrors }, summary: 'Create a user', body: createUserBody, bodyObject: 'user' }, async (request) => {
  const appId = await appIdForApiKey(request.body.api_key);
  if (appId === undefined) throw unauthorized('API key is not valid.', 'user', 'api_key', 'invalid_api_key');
  const user = await createUser(appId, request.body.user);
  return ok(serializeUser(user, NO_TOTALS, appId, 'v14'));
});

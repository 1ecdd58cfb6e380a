import { apiHandler, ok } from '#shared/http/handler.ts';
import { appOfRequest, createUserWithToken } from '#shared/domain/identity/app-users.ts';
import { serializeUser } from '#shared/domain/identity/users.ts';
import { NO_TOTALS } from '#shared/domain/identity/user-totals.ts';
import { appUserRequest } from '#shared/schemas/identity-requests.ts';

/**
 * The handler of POST /v15/apps/users (app token in the header, api_key in the body, or both) and of
 * Android's POST /v15/users (api_key in the body): a user and a token with exactly the requested
 * permissions, in one call, answered as two top-level keys (`user`, `access_token`).
 */
export function appUserHandler(handlerName: string, summary: string) {
  return apiHandler(handlerName, { body: appUserRequest, bodyObject: 'user', summary }, async (request) => {
    const { api_key, user: fields, permission_keynames } = request.body;
    const appId = await appOfRequest('user', request.credentials.app, api_key);
    const { custom_attributes, ...rest } = fields;
    const attributes = Object.fromEntries(Object.entries(custom_attributes ?? {}).filter((entry): entry is [string, string] => entry[1] !== null));
    const created = await createUserWithToken(appId, { ...rest, custom_attributes: attributes }, permission_keynames);
    return ok({
      ...serializeUser(created.user, NO_TOTALS, appId, 'v15'),
      access_token: { token: created.token, app_id: appId, user_id: created.user.user_id, merchant_id: null },
    });
  });
}

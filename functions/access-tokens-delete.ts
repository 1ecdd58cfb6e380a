import { apiHandler, noContent } from '#shared/http/handler.ts';
import { revokePresented } from '#shared/domain/identity/access-tokens.ts';

/** DELETE /v15/access_tokens: logout. Revokes the token(s) the request carries; tokens downgraded from them die too. */
export const handler = apiHandler('access-tokens-delete', { summary: 'Log out: revoke the access token sent with this request' }, async (request) => {
  await revokePresented(request.credentials);
  return noContent();
});

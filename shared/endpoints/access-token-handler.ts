import { apiHandler, ok } from '#shared/http/handler.ts';
import { createAccessToken } from '#shared/domain/identity/access-tokens.ts';
import { accessTokenRequest } from '#shared/schemas/identity-requests.ts';

/**
 * The handler of POST /v15/access_tokens and of POST /v14/access_tokens (older SDKs, the Ruby gem's
 * create_for_merchant): the same grants and answers on both paths, one Lambda per route.
 */
export function accessTokenHandler(handlerName: string, version: 'v14' | 'v15') {
  return apiHandler(
    handlerName,
    {
      summary: `${version === 'v14' ? '(v14) ' : ''}Issue an access token: app grant (api_key + client_secret) or login (username and password)`,
      body: accessTokenRequest,
      bodyObject: 'access_token',
    },
    async (request) => ok({ access_token: await createAccessToken(request.body, request.sourceIp) }),
  );
}

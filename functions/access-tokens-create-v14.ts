import { accessTokenHandler } from '#shared/endpoints/access-token-handler.ts';

/** POST /v14/access_tokens: as /v15 (the iOS, Android and older C# SDKs log in here; the Ruby gem's create_for_merchant too). */
export const handler = accessTokenHandler('access-tokens-create-v14', 'v14');

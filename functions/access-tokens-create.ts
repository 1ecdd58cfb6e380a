import { accessTokenHandler } from '#shared/endpoints/access-token-handler.ts';

/** POST /v15/access_tokens: app grant (api_key + client_secret) or login of a user or a merchant. */
export const handler = accessTokenHandler('access-tokens-create', 'v15');

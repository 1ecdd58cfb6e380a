import * as z from 'zod';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { logIn } from '#shared/domain/access-tokens.ts';
import { issuedAccessToken } from '#shared/schemas/users.ts';
import { apiErrors } from '#shared/schemas/errors.ts';

const body = z.object({
  access_token: z.object({
    api_key: z.string().min(1, { error: "can't be blank" }),
    username: z.string().trim().min(1, { error: "can't be blank" }).max(254),
    password: z.string().min(1, { error: "can't be blank" }).max(1024),
    // Sent by the mobile SDKs; device binding is not part of this service.
    device_identifier: z.string().optional(),
  }),
});

/** POST /v15/access_tokens: username-and-password login of a user or a merchant. */
export const handler = apiHandler('access-tokens-create', { responses: { 200: issuedAccessToken, 401: apiErrors }, summary: 'Log in with username and password (issues an access token)', body, bodyObject: 'access_token' }, async (request) => {
  const { api_key, username, password } = request.body.access_token;
  const issued = await logIn({ apiKey: api_key, username, password });
  return ok({ access_token: { token: issued.token, user_id: issued.user_id, merchant_id: issued.merchant_id } });
});

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok } from '#shared/http/handler.ts';
import { downgrade } from '#shared/domain/identity/access-tokens.ts';
import { unauthorized } from '#shared/errors.ts';

const body = z.object({
  access_token: z.object({
    permission_keynames: z.array(z.string()).check(z.minLength(1, { error: 'must name at least one permission' }), z.maxLength(50)),
  }),
});

/** POST /v15/access_tokens/downgrades: a token limited to some of the presented token's permissions. */
export const handler = apiHandler(
  'access-tokens-downgrade',
  { summary: "Issue a token limited to some of the presented token's permissions", body, bodyObject: 'access_token' },
  async (request) => {
    // With both a user and a merchant token presented, the user token is the one downgraded.
    const principal = request.credentials.user ?? request.credentials.merchant;
    if (!principal) throw unauthorized('An app token cannot be downgraded; ask the user for permissions instead.');
    const issued = await downgrade(principal, request.body.access_token.permission_keynames);
    return ok({ access_token: { token: issued.token, app_id: issued.app_id, user_id: issued.user_id, merchant_id: issued.merchant_id } });
  },
);

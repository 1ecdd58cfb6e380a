import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserWithTotals, serializeUser } from '#shared/domain/identity/users.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';

/** GET /v14/users/:id (C# and iOS SDKs): the token's own user by id; any other id is 404 with no body. */
export const handler = apiHandler(
  'users-show-v14',
  { params: z.object({ id: pathId }), summary: "(v14) Get a user by id (only the token's own user)" },
  async (request) => {
    const principal = requireUser(request);
    if (request.params.id !== principal.userId) throw notFound();
    const { user, totals } = await getUserWithTotals(principal.userId);
    return ok(serializeUser(user, totals, principal.appId, 'v15'));
  },
);

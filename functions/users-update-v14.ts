import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { getUserWithTotals, serializeUser, updateUser } from '#shared/domain/identity/users.ts';
import { updateUserBody } from '#shared/schemas/users.ts';
import { notFound } from '#shared/errors.ts';
import { pathId } from '#shared/schemas/params.ts';

/**
 * PUT /v14/users/:id (the C# SDK's form of PUT /v15/users): the same rules, on the token's own user only
 * (any other id is 404 with no body); `new_password` is what the SDK sends for the password.
 */
export const handler = apiHandler(
  'users-update-v14',
  { params: z.object({ id: pathId }), body: updateUserBody, bodyObject: 'user', summary: "(v14) Update a user by id (only the token's own user)" },
  async (request) => {
    const principal = requireUser(request);
    if (request.params.id !== principal.userId) throw notFound();
    const { new_password, password, ...changes } = request.body.user;
    const { user, totals } = await getUserWithTotals(principal.userId);
    const updated = await updateUser(user, principal.appId, { ...changes, password: password ?? new_password }, principal.tokenHash);
    return ok(serializeUser(updated, totals, principal.appId, 'v15'));
  },
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { answerPermissionsRequest } from '#shared/domain/identity/permissions-requests.ts';
import { pathId } from '#shared/schemas/params.ts';
import { permissionsRequestAnswer } from '#shared/schemas/identity-requests.ts';

/**
 * PUT /v15/permissions_requests/:id (unlimited user token) `{"permissions_request": {"state": "accepted" | "rejected"}}`:
 * the user answers their pending request. Accepting issues the app a token with exactly the requested permissions.
 */
export const handler = apiHandler(
  'permissions-requests-answer',
  { params: z.object({ id: pathId }), body: permissionsRequestAnswer, bodyObject: 'permissions_request', summary: 'Accept or reject a permissions request' },
  async (request) => ok(await answerPermissionsRequest(requireUser(request).userId, request.params.id, request.body.permissions_request.state)),
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler, ok, requireApp } from '#shared/http/handler.ts';
import { showPermissionsRequest } from '#shared/domain/identity/permissions-requests.ts';
import { pathId } from '#shared/schemas/params.ts';

/** GET /v15/apps/permissions_requests/:id (app token): poll a request; only the app that asked sees it. */
export const handler = apiHandler(
  'permissions-requests-show',
  { params: z.object({ id: pathId }), summary: 'Poll a permissions request (the token comes with the first poll after acceptance)' },
  async (request) => ok(await showPermissionsRequest(requireApp(request).appId, request.params.id)),
);

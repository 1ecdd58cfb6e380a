import { apiHandler, ok, requireApp } from '#shared/http/handler.ts';
import { createPermissionsRequest } from '#shared/domain/permissions-requests.ts';
import { permissionsRequestCreation } from '#shared/schemas/identity-requests.ts';
import { permissionsRequestForApp } from '#shared/schemas/permissions-requests.ts';

/** POST /v15/apps/permissions_requests (app token): ask a user, by email, for permissions; the user is emailed. */
export const handler = apiHandler(
  'permissions-requests-create',
  { body: permissionsRequestCreation, bodyObject: 'permissions_request', responses: process.env.OMIT_RESPONSE_SCHEMAS ? undefined : { 200: permissionsRequestForApp }, summary: 'Ask a user for permissions' },
  async (request) => {
    const { email, permission_keynames } = request.body.permissions_request;
    return ok(await createPermissionsRequest(requireApp(request).appId, { email, keynames: permission_keynames }));
  },
);

import { apiHandler, ok, requireApp } from '#shared/http/handler.ts';
import { createPermissionsRequest } from '#shared/domain/identity/permissions-requests.ts';
import { permissionsRequestCreation } from '#shared/schemas/identity-requests.ts';

/**
 * POST /v15/apps/permissions_requests (app token): ask a user, by email, for permissions. The same answer whether or
 * not a user has the email (that user is emailed after the answer); 429 with Retry-After past the app's or the
 * email's window (docs/identity.md "Permissions requests").
 */
export const handler = apiHandler(
  'permissions-requests-create',
  {
    body: permissionsRequestCreation,
    bodyObject: 'permissions_request',

    summary: 'Ask a user for permissions (the same answer whether or not the email is registered)',
  },
  async (request) => {
    const { email, permission_keynames } = request.body.permissions_request;
    return ok(await createPermissionsRequest(requireApp(request).appId, { email, keynames: permission_keynames }));
  },
);

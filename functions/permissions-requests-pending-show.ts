import { apiHandler, ok, requireUser } from '#shared/http/handler.ts';
import { pendingPermissionsRequest } from '#shared/domain/identity/permissions-requests.ts';

/** GET /v15/permissions_requests (unlimited user token): the user's one pending permissions request, or 404. */
export const handler = apiHandler('permissions-requests-pending-show', { summary: "The user's pending permissions request" }, async (request) =>
  ok(await pendingPermissionsRequest(requireUser(request).userId)),
);

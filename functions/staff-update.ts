import { staffWriteHandler } from '#shared/http/management.ts';
import { STAFF_NOT_FOUND, changeStaffMember, staffView } from '#shared/domain/staff/members.ts';
import { staffMemberParams, staffUpdateBody } from '#shared/schemas/staff.ts';

/** PUT /v15/merchants/:merchant_id/staff/:staff_id (owner): a new role or name; a role change revokes their tokens at once. */
export const handler = staffWriteHandler(
  'staff-update',
  {
    summary: "Change a staff member's role or name (owner)",
    description:
      "A role change revokes the staff member's tokens (they sign in again with the new role). The last owner cannot be demoted: 422 staff/role/last_owner. See docs/merchant-api.md.",
    body: staffUpdateBody,
    bodyObject: 'staff',
    params: staffMemberParams,
    notFound: STAFF_NOT_FOUND,
  },
  staffView,
  (request, { actor, context, storeResponse }) => changeStaffMember(actor, request.params.staff_id, request.body.staff, storeResponse, context.origin),
);

import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { idempotentNoContent } from '#shared/http/idempotency.ts';
import { STAFF_NOT_FOUND, removeStaffMember } from '#shared/domain/staff/members.ts';
import { staffMemberParams } from '#shared/schemas/staff.ts';

/** DELETE /v15/merchants/:merchant_id/staff/:staff_id (owner): removes them and their login; their tokens stop working at once. */
export const handler = apiHandler(
  'staff-delete',
  {
    summary: 'Remove a staff member (owner)',
    description: 'Deletes the staff member and their login and revokes their tokens. The last owner cannot be removed: 422 staff/role/last_owner.',
    params: staffMemberParams,
    notFound: STAFF_NOT_FOUND,
  },
  async (request) => {
    const actor = requireStaff(request);
    return idempotentNoContent(request, (storeResponse) => removeStaffMember(actor, request.params.staff_id, storeResponse, auditContextOf(request).origin));
  },
);

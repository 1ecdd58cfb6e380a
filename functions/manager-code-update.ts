import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { idempotentNoContent } from '#shared/http/idempotency.ts';
import { auditContextOf } from '#shared/domain/audit/audit-log.ts';
import { setManagerCode } from '#shared/domain/audit/manager-codes.ts';
import { auditLogParams, managerCodeBody } from '#shared/schemas/audit.ts';

/** PUT /v15/merchants/:merchant_id/staff/me/manager_code (owner, manager): set one's own manager code; 204, never answered back. */
export const handler = apiHandler(
  'manager-code-update',
  {
    summary: 'Set my own manager code',
    params: auditLogParams,
    body: managerCodeBody,
    bodyObject: 'manager_code',
    description:
      "4 to 8 digits. It then approves refunds, detached refunds, credit grants and gift card value removals as this staff member (the merchant's shared code keeps working). No operation answers it. A code another staff member of the merchant holds is refused (422 taken).",
  },
  async (request) => {
    const actor = requireStaff(request);
    return idempotentNoContent(request, (storeResponse) => setManagerCode(actor, request.body.manager_code.code, auditContextOf(request), storeResponse));
  },
);

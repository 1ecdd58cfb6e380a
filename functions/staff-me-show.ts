import { apiHandler, ok, requireStaff } from '#shared/http/handler.ts';
import { STAFF_NOT_FOUND, getStaffMember, staffView } from '#shared/domain/staff/members.ts';
import { merchantStaffParams } from '#shared/schemas/staff.ts';

/** GET /v15/merchants/:merchant_id/staff/me (any role): the staff member the token is, as the console shows them. */
export const handler = apiHandler(
  'staff-me-show',
  { summary: 'Who am I: the calling staff member (any role)', params: merchantStaffParams, notFound: STAFF_NOT_FOUND },
  async (request) => {
    const actor = requireStaff(request);
    return ok(staffView(await getStaffMember(actor.merchantId, actor.staffId)));
  },
);

import { staffWriteHandler } from '#shared/http/management.ts';
import { inviteStaff, staffView } from '#shared/domain/staff/members.ts';
import { merchantStaffParams, staffInviteBody } from '#shared/schemas/staff.ts';

/** POST /v15/merchants/:merchant_id/staff (owner): invites a staff member, who sets their password through the mailed link. */
export const handler = staffWriteHandler(
  'staff-create',
  {
    summary: 'Invite a staff member (owner)',
    description:
      'Creates the staff member and their login without a password, and mails them a link that sets it (valid 3 days, once). An email that signs in already: 422 staff/email/taken. At most 200 staff: 422 too_many. See docs/merchant-api.md.',
    body: staffInviteBody,
    bodyObject: 'staff',
    params: merchantStaffParams,
  },
  staffView,
  (request, { actor, context, storeResponse }) =>
    inviteStaff({ merchantId: actor.merchantId, actor, origin: context.origin, invite: request.body.staff, baseUrl: request.baseUrl, storeResponse }),
);

/** Staff of a merchant, the management API's first area (docs/merchant-api.md "Staff"); answers: shared/schemas/responses/staff.ts. */
import * as z from '#shared/schemas/zod.ts';
import { STAFF_ROLES } from '#shared/routes.ts';
import { pathId } from './params.ts';
import { emailField } from './users.ts';

/** Longest staff member's name: a person's full name as a console shows it. */
export const MAX_STAFF_NAME_LENGTH = 100;

export const staffRoleField = z.enum(STAFF_ROLES);

/** A staff member is `invited` until they set their first password through the mailed link, then `active`. */
export const STAFF_STATUSES = ['invited', 'active'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const staffNameField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: "can't be blank" }),
    z.maxLength(MAX_STAFF_NAME_LENGTH, { error: `is too long (maximum is ${MAX_STAFF_NAME_LENGTH} characters)` }),
  );

/** `/v15/merchants/{merchant_id}/staff` */
export const merchantStaffParams = z.object({ merchant_id: pathId });

/** `/v15/merchants/{merchant_id}/staff/{staff_id}` */
export const staffMemberParams = z.object({ merchant_id: pathId, staff_id: pathId });

/** POST /v15/merchants/{merchant_id}/staff: invite someone by email. */
export const staffInviteBody = z.object({
  staff: z.object({ email: emailField, name: staffNameField, role: staffRoleField }),
});
export type StaffInvite = z.output<typeof staffInviteBody>['staff'];

/** PUT /v15/merchants/{merchant_id}/staff/{staff_id}: a new role, a new name, or both. */
export const staffUpdateBody = z.object({
  staff: z
    .object({ name: z.optional(staffNameField), role: z.optional(staffRoleField) })
    .check(z.refine((change) => change.name !== undefined || change.role !== undefined, { message: 'must name a role or a name to change', path: ['role'] })),
});
export type StaffChange = z.output<typeof staffUpdateBody>['staff'];

/** What the staff operations answer (the requests: shared/schemas/staff.ts). No password, hash or code ever. */
import * as z from '#shared/schemas/zod.ts';
import { STAFF_STATUSES, staffRoleField } from '#shared/schemas/staff.ts';
import { integerId, timestamp } from './common.ts';
import { resource } from './registry.ts';

export const staffMemberResponse = resource('StaffMember', 'staff', {
  id: integerId,
  merchant_id: integerId,
  email: z.string(),
  name: z.string(),
  role: staffRoleField,
  status: z.enum(STAFF_STATUSES).check(z.describe('`invited` until they set their first password through the mailed link')),
  invited_by: z.nullable(integerId).check(z.describe('The staff member who invited them; null for a first owner added by the operators')),
  created_at: timestamp,
  updated_at: timestamp,
});

export const staffMemberList = z.array(staffMemberResponse);

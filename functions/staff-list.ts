import { staffListHandler } from '#shared/http/management-lists.ts';
import { isStaffCursor, listStaff, staffView } from '#shared/domain/staff/members.ts';
import { merchantStaffParams } from '#shared/schemas/staff.ts';

/** GET /v15/merchants/:merchant_id/staff (owner, manager): the merchant's staff by id, paged by Link; 204 past the end. */
export const handler = staffListHandler(
  'staff-list',
  { summary: "List the merchant's staff (owner, manager)", params: merchantStaffParams },
  // The cursor is the last staff member's sort key.
  { collection: 'staff', read: listStaff, sortKey: (last) => last.sk, isSortKey: isStaffCursor, render: (shown) => shown.map(staffView) },
);

import * as z from '#shared/schemas/zod.ts';
import { apiHandler } from '#shared/http/handler.ts';
import { staffListPage } from '#shared/http/management-lists.ts';
import { cursorQuery, pageQuery } from '#shared/http/paging.ts';
import { isStaffCursor, listStaff, staffView } from '#shared/domain/staff/members.ts';
import { merchantStaffParams } from '#shared/schemas/staff.ts';

const query = z.object({
  page: pageQuery,
  // Opaque position from a previous page's Link (the last staff member's sort key).
  cursor: cursorQuery(isStaffCursor),
});

/** GET /v15/merchants/:merchant_id/staff (owner, manager): the merchant's staff by id, paged by Link; 204 past the end. */
export const handler = apiHandler(
  'staff-list',
  { summary: "List the merchant's staff (owner, manager)", paged: true, params: merchantStaffParams, query },
  (request) => staffListPage(request, { collection: 'staff', read: listStaff, sortKey: (last) => last.sk, render: (shown) => shown.map(staffView) }),
);

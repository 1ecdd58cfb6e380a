import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { cursorPosition, cursorQuery, pageAnswer, pageQuery, requireReachablePage } from '#shared/http/paging.ts';
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
  async (request) => {
    const actor = requireStaff(request);
    requireReachablePage(request.query);
    const page = request.query.page ?? 1;
    const members = await listStaff(actor.merchantId, { cursor: request.query.cursor, page });
    return pageAnswer(
      request.baseUrl,
      { items: members, after: (last) => cursorPosition(`/v15/merchants/${actor.merchantId}/staff`, page, last.sk) },
      (shown) => shown.map(staffView),
    );
  },
);

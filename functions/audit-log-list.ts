import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { carriedPosition, cursorQuery, encodeCursor, pageAnswer, pageQuery, requireReachablePage } from '#shared/http/paging.ts';
import { AUDIT_PAGE_SIZE, auditEntryView, auditPosition, isAuditPosition, readAuditLog } from '#shared/domain/audit/audit-log.ts';
import { auditLogFilters, auditLogFiltersInOrder, auditLogParams } from '#shared/schemas/audit.ts';

const query = z.object({ ...auditLogFilters, page: pageQuery, cursor: cursorQuery(isAuditPosition) }).check(auditLogFiltersInOrder);

/** GET /v15/merchants/:merchant_id/audit_log (owner, manager): the merchant's audit log, newest first, filtered, paged by Link; 204 past the end. */
export const handler = apiHandler(
  'audit-log-list',
  {
    summary: "List the merchant's audit log",
    paged: true,
    params: auditLogParams,
    query,
    description:
      '`from` (inclusive) and `to` (exclusive): a date or an ISO 8601 time; `action`: one of the vocabulary; `staff_id`: what that staff member did or approved. 50 per page, newest first; every page links the next in `Link`.',
  },
  async (request) => {
    const actor = requireStaff(request);
    requireReachablePage(request.query);
    const page = request.query.page ?? 1;
    const { from, to, action, staff_id } = request.query;
    const filters = { from, to, action, staff_id };
    // A page number without a cursor skips the pages above it (at most MAX_PAGE_WITHOUT_CURSOR of them).
    const skipped = request.query.cursor === undefined ? (page - 1) * AUDIT_PAGE_SIZE : 0;
    const read = await readAuditLog(actor.merchantId, filters, { cursor: request.query.cursor, limit: skipped + AUDIT_PAGE_SIZE });
    const entries = read.entries.slice(skipped);
    const position = (sortKey: string) =>
      carriedPosition(request.event.queryStringParameters, request.rawPath, { page: String(page + 1), cursor: encodeCursor(sortKey) });
    return pageAnswer(
      request.baseUrl,
      {
        items: entries,
        after: (last) => position(read.resumeAfter ?? auditPosition(last)),
        resume: read.resumeAfter === undefined ? undefined : position(read.resumeAfter),
      },
      (shown) => shown.map((entry) => ({ audit_entry: auditEntryView(entry) })),
    );
  },
);

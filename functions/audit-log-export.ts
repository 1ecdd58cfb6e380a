import * as z from '#shared/schemas/zod.ts';
import { apiHandler, requireStaff } from '#shared/http/handler.ts';
import { carriedPosition, cursorQuery, encodeCursor, nextPageLink } from '#shared/http/paging.ts';
import { exportAuditLog, isAuditPosition, MAX_EXPORT_ROWS } from '#shared/domain/audit/audit-log.ts';
import { auditExportFilters, auditExportRange, auditLogParams } from '#shared/schemas/audit.ts';

const query = z.object({ ...auditExportFilters, cursor: cursorQuery(isAuditPosition) }).check(auditExportRange);

/** GET /v15/merchants/:merchant_id/audit_log.csv (owner): a date range of the audit log as CSV, oldest first, MAX_EXPORT_ROWS rows a response. */
export const handler = apiHandler(
  'audit-log-export',
  {
    summary: "Export the merchant's audit log as CSV",
    paged: true,
    params: auditLogParams,
    query,
    description: `\`from\` and \`to\` are required, at most 92 days apart. Oldest first, at most ${MAX_EXPORT_ROWS} rows a response: while more follow, \`Link: <...>; rel="next"\` names the next part. A cell starting with = + - @ is prefixed with ' (no spreadsheet formulas).`,
  },
  async (request) => {
    const actor = requireStaff(request);
    const { from, to, action, staff_id, cursor } = request.query;
    const exported = await exportAuditLog(actor.merchantId, { from, to, action, staff_id }, cursor);
    const rest =
      exported.next === undefined ? undefined : carriedPosition(request.event.queryStringParameters, request.rawPath, { cursor: encodeCursor(exported.next) });
    const next = rest ? nextPageLink(request.baseUrl, rest.path, rest.query) : {};
    const fileName = `audit-log-${actor.merchantId}-${from.slice(0, 10)}-${to.slice(0, 10)}.csv`;
    return {
      status: 200,
      rawBody: exported.csv,
      headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName}"`, ...next },
    };
  },
);

/**
 * The CSV exports of the management API (GET /v15/merchants/:merchant_id/exports/orders.csv and ledger.csv): one spec
 * and one serving function, each export's handler names what it exports (functions/merchant-exports-*-show.ts).
 */
import type * as z from '#shared/schemas/zod.ts';
import { requireStaff } from '#shared/http/admission.ts';
import type { ApiRequest, ApiResponse } from '#shared/http/handler.ts';
import { MAX_EXPORT_ROWS, type DayRange } from '#shared/domain/reports/exports.ts';
import { merchantParams } from '#shared/schemas/pos-money.ts';
import { exportQuery, MAX_REPORT_DAYS } from '#shared/schemas/reports.ts';

export type ExportSubject = 'orders' | 'ledger';

export function exportSpec(subject: ExportSubject) {
  return {
    summary: `Export a merchant's ${subject} as CSV (management)`,
    description: `The ${subject === 'orders' ? 'orders' : 'ledger entries'} made from \`from\` to \`to\` (UTC days, at most ${MAX_REPORT_DAYS}, both included), oldest first, as CSV (RFC 4180, CRLF lines; a text cell starting with =, +, -, @ is prefixed with ' so a spreadsheet never runs it). At most ${MAX_EXPORT_ROWS} rows: a range holding more is 422 \`export_too_large\`.`,
    params: merchantParams,
    query: exportQuery,
  };
}

type ExportRequest = ApiRequest<undefined, z.output<typeof exportQuery>, z.output<typeof merchantParams>>;

/** The staff member's merchant's export as a CSV download. */
export async function serveExport(
  request: ExportRequest,
  subject: ExportSubject,
  exporter: (merchantId: number, range: DayRange) => Promise<string>,
): Promise<ApiResponse> {
  const staff = requireStaff(request);
  const { from, to } = request.query;
  return {
    status: 200,
    rawBody: await exporter(staff.merchantId, { from, to }),
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${subject}-${from}-${to}.csv"` },
  };
}

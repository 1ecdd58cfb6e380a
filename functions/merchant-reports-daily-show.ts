import { apiHandler, ok } from '#shared/http/handler.ts';
import { requireStaff } from '#shared/http/admission.ts';
import { readDailyReport } from '#shared/domain/reports/daily.ts';
import { merchantParams } from '#shared/schemas/pos-money.ts';
import { dailyReportQuery, MAX_REPORT_DAYS } from '#shared/schemas/reports.ts';

/** GET /v15/merchants/:merchant_id/reports/daily: the merchant's figures per UTC day and location (owner, manager). */
export const handler = apiHandler(
  'merchant-reports-daily-show',
  {
    summary: "A merchant's daily report (management)",
    description: `Per UTC day from \`from\` to \`to\` (at most ${MAX_REPORT_DAYS} days, both included): sales, tips, refunds, card charges, gift card value added, spent and removed, credit added and spent, new loyalty members, rewards earned, for all locations and per location (\`location_id: null\`: movements without a location), and the outstanding gift card liability at the end of each day. Kept by the event stream: a change shows once the stream has counted it (seconds).`,
    params: merchantParams,
    query: dailyReportQuery,
  },
  async (request) => {
    const staff = requireStaff(request);
    const { from, to, location_id: locationId } = request.query;
    return ok({ daily_report: await readDailyReport(staff.merchantId, { from, to, locationId }) });
  },
);

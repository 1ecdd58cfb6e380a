/** Reports and exports of the management API (docs/merchant-api.md, "Reports and exports"): their queries. */
import * as z from '#shared/schemas/zod.ts';
import { optionalQuery, pathId } from '#shared/schemas/params.ts';

/** The longest range a report or an export covers, in days (both ends included): a quarter. */
export const MAX_REPORT_DAYS = 92;

const DAY_MS = 24 * 3600 * 1000;

/** A calendar date, `YYYY-MM-DD` (UTC days). */
export const calendarDate = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'),
  z.refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'is not a calendar date',
  ),
);

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

function requireBoundedRange(range: { from: string; to: string }, context: z.core.$RefinementCtx): void {
  const days = daysBetween(range.from, range.to);
  if (days < 1) context.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  else if (days > MAX_REPORT_DAYS)
    context.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_REPORT_DAYS} days after from (both included)` });
}

const range = { from: calendarDate, to: calendarDate };

/** GET /v15/merchants/{merchant_id}/reports/daily?from=&to=&location_id= */
export const dailyReportQuery = z.object({ ...range, location_id: optionalQuery(pathId) }).check(z.superRefine(requireBoundedRange));

/** GET /v15/merchants/{merchant_id}/exports/orders.csv and .../ledger.csv ?from=&to= */
export const exportQuery = z.object(range).check(z.superRefine(requireBoundedRange));

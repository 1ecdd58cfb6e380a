/**
 * The daily report (GET /v15/merchants/{merchant_id}/reports/daily): the aggregates the stream keeps
 * (aggregates.ts) for a bounded range of UTC days, read by key ranges of the merchant's report partition (two
 * Queries), never by scanning what they count. The named figures are fixed sums of the stored ledger sums, so they
 * are the ledger's own figures; the stored sums are answered too (`ledger`), for reconciliation.
 */
import type * as z from '#shared/schemas/zod.ts';
import type { dailyReportResponse } from '#shared/schemas/responses/reports.ts';
import { table } from '#shared/db/client.ts';
import { keys, padId } from '#shared/db/keys.ts';
import { queryAll } from '#shared/db/reads.ts';
import { ALL_LOCATIONS, LEDGER_FIGURE_PREFIX, LIABILITY_CHANGE, NO_LOCATION, ReportDay, ReportMonth, type Figures } from '#shared/domain/reports/aggregates.ts';

type ReportDayItem = NonNullable<ReturnType<typeof ReportDay.from>>;

/** A named figure: the ledger sums (`<account kind>:<movement kind>`) it adds, each with its sign, or a stored count. */
const LEDGER_FIGURES: Record<string, readonly (readonly [string, 1 | -1])[]> = {
  card_charged_amount: [['card:card_charge', 1]],
  // Money an order's refund gave back: to the card, and to the gift card it was paid with.
  refunds_amount: [
    ['card:card_refund', -1],
    ['giftcard:gift_card_restored', 1],
  ],
  gift_card_value_added_amount: [
    ['giftcard:gift_card_load', 1],
    ['held:gift_held', 1],
  ],
  gift_card_value_spent_amount: [['giftcard:gift_card_redeemed', -1]],
  gift_card_value_removed_amount: [
    ['giftcard:gift_card_removed', -1],
    ['held:gift_returned', -1],
  ],
  credit_added_amount: [
    ['credit:credit_earned', 1],
    ['credit:credit_granted', 1],
    ['credit:detached_refund', 1],
  ],
  credit_spent_amount: [['credit:credit_applied', -1]],
  // Credit taken back: what a refunded order earned, detached credit its refunded charge no longer covers, expired grants.
  credit_removed_amount: [
    ['credit:credit_reversed', -1],
    ['credit:detached_refund_reversed', -1],
    ['credit:credit_expired', -1],
  ],
};

const COUNTED_FIGURES = ['orders_count', 'sales_amount', 'tips_amount', 'loyalty_members_count', 'rewards_earned_count', 'rewards_earned_amount'] as const;

/** The answer's types are the response schema's (shared/schemas/responses/reports.ts): one definition of the figures. */
export type DailyReport = z.output<typeof dailyReportResponse>['daily_report'];
export type ReportDayAnswer = DailyReport['days'][number];
export type ReportFigures = ReportDayAnswer['all_locations'];

function figuresOf(row: Figures | undefined): ReportFigures {
  const ledger: Record<string, number> = {};
  for (const [name, value] of Object.entries(row ?? {})) {
    if (name.startsWith(LEDGER_FIGURE_PREFIX) && typeof value === 'number' && value !== 0) ledger[name.slice(LEDGER_FIGURE_PREFIX.length)] = value;
  }
  const counted = Object.fromEntries(COUNTED_FIGURES.map((name) => [name, Number(row?.[name] ?? 0)])) as Record<(typeof COUNTED_FIGURES)[number], number>;
  const named = Object.fromEntries(
    Object.entries(LEDGER_FIGURES).map(([name, terms]) => [name, terms.reduce((sum, [sumName, sign]) => sum + sign * (ledger[sumName] ?? 0), 0)]),
  ) as Omit<ReportFigures, 'ledger' | (typeof COUNTED_FIGURES)[number]>;
  return { ...counted, ...named, ledger };
}

/** The dates from `from` to `to`, both included. */
function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += 24 * 3600 * 1000)
    dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

/** Σ of the merchant's liability changes in the months before `month` (a few items a year, summed by the reader). */
async function liabilityBefore(merchantId: number, month: string): Promise<number> {
  const bounds = keys.reportMonthsBefore(merchantId, month);
  const rows = await queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    // `to` is the month itself: BETWEEN includes it, so the month's own row is dropped below.
    ExpressionAttributeValues: { ':pk': bounds.pk, ':from': bounds.from, ':to': bounds.to },
  });
  return rows.flatMap((row) => ReportMonth.from(row) ?? []).reduce((sum, row) => sum + (row.month < month ? Number(row.liability_change_amount ?? 0) : 0), 0);
}

/** The merchant's report for `from`..`to` (UTC days, a range the query schema bounded), optionally of one location. */
export async function readDailyReport(merchantId: number, range: { from: string; to: string; locationId?: number }): Promise<DailyReport> {
  // The liability as of a day sums every change before it: whole months from the month rows, the rest of the
  // first month from its day rows (read with the range).
  const firstOfMonth = `${range.from.slice(0, 7)}-01`;
  const bounds = keys.reportDays(merchantId, firstOfMonth, range.to);
  const [rows, before] = await Promise.all([
    queryAll({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': bounds.pk, ':from': bounds.from, ':to': bounds.to },
    }),
    liabilityBefore(merchantId, range.from.slice(0, 7)),
  ]);
  const byDate = new Map<string, ReportDayItem[]>();
  for (const row of rows.flatMap((item) => ReportDay.from(item) ?? [])) byDate.set(row.date, [...(byDate.get(row.date) ?? []), row]);
  const wanted = range.locationId === undefined ? undefined : padId(range.locationId);
  let liability = before;
  const days: ReportDayAnswer[] = [];
  for (const date of datesOf(firstOfMonth, range.to)) {
    const dayRows = byDate.get(date) ?? [];
    const all = dayRows.find((row) => row.location === ALL_LOCATIONS);
    liability += Number(all?.[LIABILITY_CHANGE] ?? 0);
    if (date < range.from) continue;
    const locations = dayRows
      .filter((row) => row.location !== ALL_LOCATIONS && (wanted === undefined || row.location === wanted))
      .map((row) => ({ location_id: row.location === NO_LOCATION ? null : Number(row.location), ...figuresOf(row) }));
    days.push({ date, gift_card_liability_amount: liability, all_locations: figuresOf(all), locations });
  }
  return { from: range.from, to: range.to, time_zone: 'UTC', location_id: range.locationId ?? null, days };
}

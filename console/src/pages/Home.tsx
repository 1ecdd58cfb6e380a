import { lazy, Suspense, useCallback } from 'react';
import { allItems, type components } from '../../../clients/typescript/index.ts';
import { Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { formatMoney, utcDate } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { answered, type PageProps } from '../session.ts';
import { FiguresTable } from '../tables.tsx';

type DailyReport = components['schemas']['DailyReport']['daily_report'];
type Figures = DailyReport['days'][number]['all_locations'];

/** The figures the home page shows, in this order: the report's own names. */
const SHOWN = [
  ['orders_count', 'Orders', 'count'],
  ['sales_amount', 'Sales', 'money'],
  ['tips_amount', 'Tips', 'money'],
  ['refunds_amount', 'Refunds', 'money'],
  ['gift_card_value_added_amount', 'Gift card value added', 'money'],
  ['gift_card_value_spent_amount', 'Gift card value spent', 'money'],
  ['loyalty_members_count', 'New loyalty members', 'count'],
  ['rewards_earned_count', 'Rewards earned', 'count'],
] as const satisfies readonly (readonly [keyof Figures, string, 'count' | 'money'])[];

/** Chart.js and the chart (about 54 KiB gzip) load only when the home page draws it: the first load stays small. */
const HomeChart = lazy(() =>
  import('./HomeChart.tsx').catch(() => ({
    default: () => <p>The chart could not be loaded. The figures are in the table below.</p>,
  })),
);

const COLUMNS = SHOWN.map(([key, label]) => ({ key, label }));

const WEEK_DAYS = 7;
const DAY_MS = 86_400_000;
const formatted = (value: number, kind: 'count' | 'money') => (kind === 'money' ? formatMoney(value) : value.toLocaleString());

interface Row {
  key: string;
  name: string;
  today: Partial<Figures>;
  week: Partial<Figures>;
}

function add(into: Partial<Figures>, figures: Partial<Figures>): void {
  for (const [key] of SHOWN) into[key] = (into[key] ?? 0) + (figures[key] ?? 0);
}

/** One row per location (and the merchant-wide row), today's figures and the last seven days' (today included). */
function rowsOf(report: DailyReport, names: Map<number, string>, today: string): Row[] {
  const rows = new Map<string, Row>();
  const rowFor = (key: string, name: string) => {
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, name, today: {}, week: {} }));
    return row;
  };
  rowFor('all', 'All locations');
  // Every location has its row, a quiet one with zeros.
  for (const [id, name] of names) rowFor(String(id), name);
  for (const day of report.days) {
    const entries: [Row, Partial<Figures>][] = [[rowFor('all', 'All locations'), day.all_locations]];
    for (const location of day.locations) {
      const name = location.location_id === null ? 'No location (app, grants)' : (names.get(location.location_id) ?? `Location ${location.location_id}`);
      entries.push([rowFor(String(location.location_id), name), location]);
    }
    for (const [row, figures] of entries) {
      add(row.week, figures);
      if (day.date === today) add(row.today, figures);
    }
  }
  return [...rows.values()];
}

/** The week's sales per day (UTC dates, oldest first) and per location: the chart's bars and the table beside it. */
interface WeekSales {
  days: string[];
  series: { key: string; label: string; values: number[] }[];
}

const dayLabel = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayWords = (date: string) => dayLabel.format(new Date(`${date}T00:00:00Z`));

function weekSalesOf(report: DailyReport, names: Map<number, string>, now: number): WeekSales {
  const days = Array.from({ length: WEEK_DAYS }, (_, index) => utcDate(now - (WEEK_DAYS - 1 - index) * DAY_MS));
  const series = new Map<string, WeekSales['series'][number]>();
  const seriesFor = (key: string, label: string) => {
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { key, label, values: days.map(() => 0) }));
    return entry;
  };
  for (const [id, name] of names) seriesFor(String(id), name);
  for (const day of report.days) {
    const index = days.indexOf(day.date);
    if (index < 0) continue;
    for (const location of day.locations) {
      // Sales without a location do not happen (orders have one); a row with none is shown only if it sold.
      if (location.location_id === null && location.sales_amount === 0) continue;
      const name = location.location_id === null ? 'No location' : (names.get(location.location_id) ?? `Location ${location.location_id}`);
      seriesFor(String(location.location_id), name).values[index]! += location.sales_amount;
    }
  }
  return { days, series: [...series.values()] };
}

export function Home({ client, merchantId, me }: PageProps) {
  return (
    <>
      <h1>Home</h1>
      {me.role === 'staff' ? (
        <p>Sales figures are for owners and managers. Use the menu to open your pages.</p>
      ) : (
        <Figures client={client} merchantId={merchantId} />
      )}
    </>
  );
}

/** Today's and this week's figures per location (the daily report and the locations' names), then the week's chart. */
function Figures({ client, merchantId }: Pick<PageProps, 'client' | 'merchantId'>) {
  const load = useCallback(async (): Promise<{ rows: Row[]; week: WeekSales }> => {
    const now = Date.now();
    const today = utcDate(now);
    const merchant = { merchant_id: String(merchantId) };
    const [report, locations] = await Promise.all([
      client.GET('/v15/merchants/{merchant_id}/reports/daily', {
        params: { path: merchant, query: { from: utcDate(now - (WEEK_DAYS - 1) * DAY_MS), to: today } },
      }),
      allItems(client, '/v15/merchants/{merchant_id}/all_locations', { params: { path: merchant } }),
    ]);
    const names = new Map(locations.map(({ location }) => [location.id, location.name ?? `Location ${location.id}`]));
    const daily = answered(report).daily_report;
    return { rows: rowsOf(daily, names, today), week: weekSalesOf(daily, names, now) };
  }, [client, merchantId]);
  const { data, error } = useLoaded(load);

  return (
    <WhenLoaded data={data} error={error} progress="Loading today's figures…">
      {({ rows, week }) => (
        <>
          <p className="hint">Days are counted in UTC. This week is the last seven days, today included.</p>
          {(['today', 'week'] as const).map((period) => (
            <section key={period}>
              <h2 id={`heading-${period}`}>{period === 'today' ? 'Today' : 'This week'}</h2>
              <FiguresTable
                labelledBy={`heading-${period}`}
                rowHeading="Location"
                columns={COLUMNS}
                rows={rows.map((row) => ({ key: row.key, header: row.name, figures: SHOWN.map(([key, , kind]) => formatted(row[period][key] ?? 0, kind)) }))}
              />
            </section>
          ))}
          <WeekSalesChart week={week} />
        </>
      )}
    </WhenLoaded>
  );
}

/** The week's sales per day and location: a bar chart (Chart.js, loaded lazily) and the same figures in a table. */
function WeekSalesChart({ week }: { week: WeekSales }) {
  const labels = week.days.map(dayWords);
  return (
    <section>
      <h2 id="heading-week-sales">Sales per day this week</h2>
      <Suspense fallback={<Progress label="Loading the chart…" />}>
        <HomeChart
          label={`Bar chart of sales per day from ${labels[0]} to ${labels.at(-1)}, one bar per location. The figures are in the table below.`}
          days={labels}
          series={week.series}
        />
      </Suspense>
      <FiguresTable
        labelledBy="caption-week-sales"
        caption="Sales per day and location (UTC days)"
        rowHeading="Day"
        columns={week.series}
        rows={labels.map((label, index) => ({
          key: week.days[index] ?? label,
          header: label,
          figures: week.series.map((entry) => formatMoney(entry.values[index] ?? 0)),
        }))}
      />
    </section>
  );
}

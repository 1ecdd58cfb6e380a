import { useCallback } from 'react';
import { allItems, type components } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { formatMoney, utcDate } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { answered, type PageProps } from '../session.ts';

type DailyReport = components['schemas']['DailyReport']['daily_report'];
type Figures = DailyReport['days'][number]['all_locations'];

/** The figures the home page shows, in this order: the report's own names. */
const SHOWN = [
  ['orders_count', 'Orders', 'count'],
  ['sales_amount', 'Sales', 'money'],
  ['tips_amount', 'Tips', 'money'],
  ['refunds_amount', 'Refunds', 'money'],
  ['gift_card_value_added_amount', 'Gift card value added', 'money'],
] as const satisfies readonly (readonly [keyof Figures, string, 'count' | 'money'])[];

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

export function Home({ client, merchantId, me }: PageProps) {
  const mayReadReports = me.role !== 'staff';

  const load = useCallback(async (): Promise<Row[] | undefined> => {
    if (!mayReadReports) return undefined;
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
    return rowsOf(answered(report).daily_report, names, today);
  }, [client, merchantId, mayReadReports]);
  const { data: rows, error } = useLoaded(load);

  return (
    <>
      <h1>Home</h1>
      {!mayReadReports ? (
        <p>Sales figures are for owners and managers. Use the menu to open your pages.</p>
      ) : error ? (
        <ErrorMessage error={error} />
      ) : !rows ? (
        <Progress label="Loading today's figures…" />
      ) : (
        <>
          <p className="hint">Days are counted in UTC. This week is the last seven days, today included.</p>
          {(['today', 'week'] as const).map((period) => (
            <section key={period}>
              <h2 id={`heading-${period}`}>{period === 'today' ? 'Today' : 'This week'}</h2>
              <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`heading-${period}`}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Location</th>
                      {SHOWN.map(([key, label]) => (
                        <th scope="col" key={key} className="number">
                          {label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={row.key}>
                        <th scope="row">{row.name}</th>
                        {SHOWN.map(([key, , kind]) => (
                          <td key={key} className="number">
                            {formatted(row[period][key] ?? 0, kind)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))}
        </>
      )}
    </>
  );
}

import { useCallback, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { components } from '../../../clients/typescript/index.ts';
import { formText } from '../customers-form.ts';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { SelectField } from '../fields.tsx';
import { formatMoney, utcDate } from '../format.ts';
import { useLoaded, useLocations, type LocationName } from '../loaded.ts';
import { answered, ConsoleError, type PageProps } from '../session.ts';
import { FiguresTable } from '../tables.tsx';

type DailyReport = components['schemas']['DailyReport']['daily_report'];
type Figures = DailyReport['days'][number]['all_locations'];

/** The report's gift card figures (docs/merchant-api.md, "Reports and exports"), in the order the tables show them. */
const FIGURES = [
  ['gift_card_value_added_amount', 'Value added'],
  ['gift_card_value_spent_amount', 'Value spent'],
  ['gift_card_value_removed_amount', 'Value removed'],
] as const satisfies readonly (readonly [keyof Figures, string])[];
type GiftCardFigures = Record<(typeof FIGURES)[number][0], number>;
const COLUMNS = FIGURES.map(([key, label]) => ({ key, label }));
const moneyOf = (figures: GiftCardFigures) => FIGURES.map(([key]) => formatMoney(figures[key]));

/** The longest range the report answers (both days included), as the API bounds it. */
const MAX_DAYS = 92;
const DEFAULT_DAYS = 7;
const DAY_MS = 86_400_000;
/** The location filter's value for "every location"; "none" is what has no location (app orders, gifts, returns). */
const ALL = 'all';
const NONE = 'none';

const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
const daysFrom = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const zero = (): GiftCardFigures => ({ gift_card_value_added_amount: 0, gift_card_value_spent_amount: 0, gift_card_value_removed_amount: 0 });

function addInto(into: GiftCardFigures, figures: Partial<Figures> | undefined): GiftCardFigures {
  for (const [key] of FIGURES) into[key] += figures?.[key] ?? 0;
  return into;
}

/** A day's figures at the chosen place: every location, one location, or what has no location. */
function figuresAt(day: DailyReport['days'][number], location: string): GiftCardFigures {
  if (location === ALL) return addInto(zero(), day.all_locations);
  const wanted = location === NONE ? null : Number(location);
  return day.locations.filter((row) => row.location_id === wanted).reduce(addInto, zero());
}

/** Gift card activity and liability per day and location, from the daily report (owners and managers). */
export function GiftCards({ client, merchantId, me }: PageProps) {
  const [search, setSearch] = useSearchParams();
  const [today] = useState(() => utcDate(Date.now()));
  const { data: locations, error: locationsError } = useLocations(client, merchantId);

  // The range and the place live in the address, so a reload or a shared link shows the same figures.
  const fromParam = search.get('from');
  const toParam = search.get('to');
  const to = isDay(toParam) ? toParam : today;
  const from = isDay(fromParam) ? fromParam : utcDate(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS);
  const location = search.get('location') ?? ALL;
  const [formError, setFormError] = useState<ConsoleError>();

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const [nextFrom, nextTo, nextLocation] = [formText(form, 'from'), formText(form, 'to'), formText(form, 'location')];
    if (!isDay(nextFrom) || !isDay(nextTo)) return setFormError(new ConsoleError('Choose both days of the range.', 0, undefined));
    const days = daysFrom(nextFrom, nextTo);
    if (days < 1) return setFormError(new ConsoleError('The last day must not be before the first day.', 0, undefined));
    if (days > MAX_DAYS) return setFormError(new ConsoleError(`Choose at most ${MAX_DAYS} days (a quarter) at once.`, 0, undefined));
    setFormError(undefined);
    setSearch(new URLSearchParams({ from: nextFrom, to: nextTo, ...(nextLocation && nextLocation !== ALL ? { location: nextLocation } : {}) }));
  }

  if (me.role === 'staff') {
    return (
      <>
        <h1>Gift cards</h1>
        <p>Gift card figures are for owners and managers.</p>
        <p>
          A customer&apos;s gift card value is on their page: <Link to="/customers">find the customer</Link>.
        </p>
      </>
    );
  }

  return (
    <>
      <h1>Gift cards</h1>
      <p className="hint">
        Gift card value your customers loaded, spent and had removed, and what they still hold (your liability), per day in UTC. A customer&apos;s own gift card
        value is on their page: <Link to="/customers">find the customer</Link>.
      </p>
      <WhenLoaded data={locations} error={locationsError} progress="Loading your locations…">
        {(locations) => (
          <>
            {/* key: the fields start from the address again when it changes (back, a link). */}
            <form className="filters" aria-label="Choose the days and the location" onSubmit={apply} key={search.toString()}>
              <label>
                First day (UTC)
                <input type="date" name="from" defaultValue={from} max={today} required />
              </label>
              <label>
                Last day (UTC)
                <input type="date" name="to" defaultValue={to} required />
              </label>
              <SelectField
                label="Location"
                name="location"
                defaultValue={location}
                options={[
                  { value: ALL, label: 'All locations' },
                  ...locations.map((entry) => ({ value: entry.id, label: entry.name })),
                  { value: NONE, label: 'No location (app orders, gifts)' },
                ]}
              />
              <button type="submit">Show the figures</button>
            </form>
            <ErrorMessage error={formError} />
            <GiftCardReport key={`${from} ${to}`} {...{ client, merchantId, from, to, location, locations }} />
          </>
        )}
      </WhenLoaded>
    </>
  );
}

function GiftCardReport({
  client,
  merchantId,
  from,
  to,
  location,
  locations,
}: Pick<PageProps, 'client' | 'merchantId'> & { from: string; to: string; location: string; locations: LocationName[] }) {
  const load = useCallback(
    async () =>
      answered(await client.GET('/v15/merchants/{merchant_id}/reports/daily', { params: { path: { merchant_id: String(merchantId) }, query: { from, to } } }))
        .daily_report,
    [client, merchantId, from, to],
  );
  const { data: report, error } = useLoaded(load);

  if (error) return <ErrorMessage error={error} />;
  if (!report) return <Progress label="Loading the gift card figures…" />;

  const placeName =
    location === ALL
      ? 'all locations'
      : location === NONE
        ? 'no location (app orders, gifts)'
        : (locations.find((entry) => String(entry.id) === location)?.name ?? `location ${location}`);
  const days = report.days.map((day) => ({ date: day.date, liability: day.gift_card_liability_amount, figures: figuresAt(day, location) }));
  const totals = days.reduce((sum, day) => addInto(sum, day.figures), zero());
  const outstanding = days.at(-1)?.liability ?? 0;
  const byLocation = [
    ...locations.map((entry) => ({ key: String(entry.id), name: entry.name, id: entry.id })),
    { key: NONE, name: 'No location (app orders, gifts)', id: null },
  ].map((row) => ({
    ...row,
    figures: report.days.reduce(
      (sum, day) =>
        addInto(
          sum,
          day.locations.find((entry) => entry.location_id === row.id),
        ),
      zero(),
    ),
  }));

  return (
    <>
      <section aria-labelledby="liability-heading">
        <h2 id="liability-heading">Outstanding value</h2>
        <p className="gift-cards-figure">
          Your customers held <strong>{formatMoney(outstanding)}</strong> of gift card value at the end of {to} (UTC), all locations.
        </p>
        <p className="hint">
          This is your gift card liability: value loaded or bought and not yet spent, removed or returned, gifts waiting for their recipient included.
        </p>
      </section>
      <section aria-labelledby="days-heading">
        <h2 id="days-heading">By day</h2>
        <FiguresTable
          labelledBy="gift-days-caption"
          caption={`Gift card activity at ${placeName} from ${from} to ${to} (UTC)`}
          className="gift-cards"
          rowHeading="Day"
          columns={[...COLUMNS, { key: 'outstanding', label: "Outstanding at the day's end (all locations)" }]}
          rows={days.map((day) => ({ key: day.date, header: day.date, figures: [...moneyOf(day.figures), formatMoney(day.liability)] }))}
          total={{ key: 'total', header: 'Total', figures: [...moneyOf(totals), formatMoney(outstanding)] }}
        />
      </section>
      <section aria-labelledby="locations-heading">
        <h2 id="locations-heading">By location</h2>
        <FiguresTable
          labelledBy="gift-locations-caption"
          caption={`Gift card activity per location from ${from} to ${to} (UTC)`}
          rowHeading="Location"
          columns={COLUMNS}
          rows={byLocation.map((row) => ({ key: row.key, header: row.name, figures: moneyOf(row.figures) }))}
        />
      </section>
      <p className="hint">
        Value added: loaded at a register or bought in the app (a gift waiting for its recipient too). Value spent: paid with gift cards on orders. Value
        removed: taken off at a register, or an unclaimed gift returned to its buyer. The figures count each movement once the system has recorded it, within
        seconds.
      </p>
    </>
  );
}

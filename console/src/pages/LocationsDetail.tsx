import { Fragment, useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { withIdempotencyKey } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { useLoaded } from '../loaded.ts';
import { useWrite } from '../write.ts';
import {
  addressOf,
  dayInWords,
  FULFILLMENT,
  fulfillmentInWords,
  hoursOf,
  MAX_PERIODS_A_DAY,
  nameOf,
  WEEK,
  weekOf,
  type FulfillmentType,
  type LocationSettings,
  type WeekHours,
  type Weekday,
} from '../locations-hours.ts';
import { answered, ConsoleError, type PageProps } from '../session.ts';
import { LocationPicture } from './LocationsPicture.tsx';

/** A lost race (409) or a busy API (429, 5xx) is sent again with the same Idempotency-Key: the change applies once. */
const SAVE_ATTEMPTS = 3;
/** The API's bounds (docs/merchant-api.md, "Locations"). */
const MAX_DELIVERY_RADIUS_M = 100_000;
const MAX_READY_TIME_MINUTES = 1440;

/** One location's page; another location's address starts a fresh page (nothing of the last one stays). */
export function LocationDetail(props: PageProps) {
  const { locationId = '' } = useParams();
  return <LocationPage key={locationId} locationId={locationId} {...props} />;
}

/** One location: its facts, its settings (read, or changed by owners and managers as their role allows) and its picture. */
function LocationPage({ client, merchantId, me, locationId }: PageProps & { locationId: string }) {
  const created = (useLocation().state as { created?: unknown } | null)?.created === true;
  const load = useCallback(
    () =>
      client
        .GET('/v15/merchants/{merchant_id}/locations/{location_id}', { params: { path: { merchant_id: String(merchantId), location_id: locationId } } })
        .then((answer) => answered(answer).location),
    [client, merchantId, locationId],
  );
  const loaded = useLoaded(load);
  // The answer of the last save replaces what was read (it is the location as changed).
  const [saved, setSaved] = useState<LocationSettings>();
  const location = saved ?? loaded.data;
  const savedNotice = useRef<HTMLParagraphElement>(null);
  const [notice, setNotice] = useState<string | undefined>(created ? 'The location is created. Set its opening hours below.' : undefined);

  useEffect(() => {
    if (notice) savedNotice.current?.focus();
  }, [notice]);

  return (
    <>
      <p>
        <Link to="/locations">Back to the locations</Link>
      </p>
      {loaded.error ? (
        <>
          <h1>Location</h1>
          <ErrorMessage error={loaded.error} />
        </>
      ) : !location ? (
        <>
          <h1>Location</h1>
          <Progress label="Loading the location…" />
        </>
      ) : (
        <>
          <h1>{nameOf(location)}</h1>
          {/* Focus lands here after a save, so a screen reader says the result. */}
          <p role="status" className="saved" ref={savedNotice} tabIndex={-1}>
            {notice}
          </p>
          <dl className="facts">
            <dt>Address</dt>
            <dd>{addressOf(location)}</dd>
            <dt>Time zone</dt>
            <dd>{location.time_zone}</dd>
            <dt>Phone</dt>
            <dd>{location.phone ?? 'Not given'}</dd>
            <dt>In apps</dt>
            <dd>{location.shown ? 'Shown' : 'Hidden (the register still serves it)'}</dd>
          </dl>
          {me.role === 'staff' ? (
            <ReadOnlySettings location={location} />
          ) : (
            <SettingsForm
              key={location.version}
              client={client}
              merchantId={merchantId}
              me={me}
              location={location}
              onSaved={(next) => {
                setSaved(next);
                setNotice(`Saved at ${new Date().toLocaleTimeString()}. Apps show the new settings now.`);
              }}
            />
          )}
          <section aria-labelledby="picture-heading">
            <h2 id="picture-heading">Picture</h2>
            {me.role === 'staff' ? (
              <p>Owners and managers change the location’s picture.</p>
            ) : (
              <LocationPicture client={client} merchantId={merchantId} location={location} />
            )}
          </section>
        </>
      )}
    </>
  );
}

/** What staff see: the settings in words, and who may change them. */
function ReadOnlySettings({ location }: { location: LocationSettings }) {
  const week = weekOf(location.hours);
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <p className="hint">Owners and managers change these settings; you can read them.</p>
      <h3>Opening hours ({location.time_zone})</h3>
      <dl className="facts">
        {WEEK.map(({ day, name }) => (
          <Fragment key={day}>
            <dt>{name}</dt>
            <dd>{dayInWords(week[day])}</dd>
          </Fragment>
        ))}
      </dl>
      <OwnerSettingsFacts location={location} />
    </section>
  );
}

/** The settings only an owner changes, in words. */
function OwnerSettingsFacts({ location }: { location: LocationSettings }) {
  return (
    <>
      <h3>Ways to order</h3>
      <dl className="facts">
        <dt>Ways to order</dt>
        <dd>{fulfillmentInWords(location.fulfillment_types)}</dd>
        <dt>Delivery area</dt>
        <dd>{location.delivery_radius_m === null ? 'No delivery' : `Within ${formatDistance(location.delivery_radius_m)} of the location`}</dd>
        <dt>Ready in</dt>
        <dd>{location.ready_time_estimate_in_minutes} minutes</dd>
        <dt>Tips</dt>
        <dd>{tipsInWords(location)}</dd>
      </dl>
    </>
  );
}

const distance = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** 3000 -> `3 km (3,000 m)`; under a kilometre in meters. */
function formatDistance(meters: number): string {
  return meters >= 1000 ? `${distance.format(meters / 1000)} km (${distance.format(meters)} m)` : `${distance.format(meters)} m`;
}

function tipsInWords(location: LocationSettings): string {
  const accepted = [
    location.accepts_tips_in_store ? 'in store' : undefined,
    location.accepts_tips_on_pickup ? 'on pickup' : undefined,
    location.accepts_tips_on_delivery ? 'on delivery' : undefined,
  ].filter(Boolean);
  return accepted.length === 0 ? 'Not accepted' : `Accepted ${accepted.join(', ')}`;
}

/** An opening or closing time of one period; the hint above the week says how times are read. */
function ClockInput({ label, id, value, onChange }: { label: string; id?: string; value: string; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <input id={id} type="time" required aria-describedby="hours-hint" value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

/**
 * "Ways to order": a checkbox a fulfillment type, named "fulfillment" (a form reads them too) and kept in FULFILLMENT's
 * order; while delivery is ticked, the delivery radius (`radiusInput`) under them. `children` follow (hints).
 */
export function FulfillmentFieldset({
  chosen,
  onChange,
  radiusInput,
  children,
}: {
  chosen: readonly FulfillmentType[];
  onChange: (chosen: FulfillmentType[]) => void;
  radiusInput: ReactNode;
  children?: ReactNode;
}) {
  return (
    <fieldset>
      <legend>Ways to order</legend>
      {FULFILLMENT.map(({ type, label }) => (
        <label className="check" key={type}>
          <input
            type="checkbox"
            name="fulfillment"
            value={type}
            checked={chosen.includes(type)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? FULFILLMENT.map((each) => each.type).filter((each) => each === type || chosen.includes(each))
                  : chosen.filter((each) => each !== type),
              )
            }
          />
          {label}
        </label>
      ))}
      {chosen.includes('delivery') ? (
        <label>
          Delivery area: radius in meters
          {radiusInput}
        </label>
      ) : null}
      {children}
    </fieldset>
  );
}

type SettingsFormProps = PageProps & { location: LocationSettings; onSaved: (location: LocationSettings) => void };

/**
 * The settings form: opening hours per weekday and "shown in apps" for owners and managers; ways to order, the
 * delivery area, the ready time and tips for owners (a manager sending them would be 403; they are shown in words).
 */
function SettingsForm({ client, merchantId, me, location, onSaved }: SettingsFormProps) {
  const owner = me.role === 'owner';
  const [week, setWeek] = useState<WeekHours>(() => weekOf(location.hours));
  const [shown, setShown] = useState(location.shown);
  const [fulfillment, setFulfillment] = useState<FulfillmentType[]>(location.fulfillment_types);
  const [radius, setRadius] = useState(location.delivery_radius_m === null ? '' : String(location.delivery_radius_m));
  const [readyTime, setReadyTime] = useState(String(location.ready_time_estimate_in_minutes));
  const [tips, setTips] = useState({
    accepts_tips_in_store: location.accepts_tips_in_store,
    accepts_tips_on_pickup: location.accepts_tips_on_pickup,
    accepts_tips_on_delivery: location.accepts_tips_on_delivery,
  });
  const { busy: saving, error, setError, run } = useWrite();
  // After a period is added or removed, focus goes to its first time or its day's "add" button (not lost to the page).
  const focusNext = useRef<string>(undefined);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = undefined;
  }, [week]);

  const delivers = fulfillment.includes('delivery');

  function changeDay(day: Weekday, periods: WeekHours[Weekday]) {
    setWeek((current) => ({ ...current, [day]: periods }));
  }
  function changePeriod(day: Weekday, index: number, change: { opens: string } | { closes: string }) {
    changeDay(
      day,
      week[day].map((each, at) => (at === index ? { ...each, ...change } : each)),
    );
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (owner && fulfillment.length === 0) {
      setError(new ConsoleError('Choose at least one way to order.', 422, undefined));
      return;
    }
    // Managers send what their role changes; owners everything the form shows (only what differs is written).
    const change = {
      hours: hoursOf(week),
      shown,
      ...(owner
        ? {
            fulfillment_types: fulfillment,
            // The API's rule: a location that delivers has a radius, one that does not has none (null).
            delivery_radius_m: delivers ? Number(radius) : null,
            ready_time_estimate_in_minutes: Number(readyTime),
            ...tips,
          }
        : {}),
    };
    await run(async () => {
      const answer = await withIdempotencyKey(
        (key) =>
          client.PUT('/v15/merchants/{merchant_id}/locations/{location_id}', {
            params: { path: { merchant_id: String(merchantId), location_id: String(location.id) }, header: { 'Idempotency-Key': key } },
            body: { location: change },
          }),
        { attempts: SAVE_ATTEMPTS },
      );
      onSaved(answered(answer).location);
    });
  }

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <form className="location-settings" onSubmit={(event) => void save(event)} aria-labelledby="settings-heading">
        <fieldset>
          <legend>Opening hours</legend>
          <p className="hint" id="hours-hint">
            Times are in the location’s time zone, {location.time_zone}. A closing time at or before the opening time runs past midnight; 12:00 AM (00:00) is
            midnight.
          </p>
          {WEEK.map(({ day, name }) => (
            <fieldset key={day} className="day">
              <legend>{name}</legend>
              {week[day].length === 0 ? <p className="closed">Closed</p> : null}
              {week[day].map((period, index) => (
                <div className="period" key={index}>
                  <ClockInput label="Opens" id={`opens-${day}-${index}`} value={period.opens} onChange={(opens) => changePeriod(day, index, { opens })} />
                  <ClockInput label="Closes" value={period.closes} onChange={(closes) => changePeriod(day, index, { closes })} />
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => {
                      changeDay(
                        day,
                        week[day].filter((_, at) => at !== index),
                      );
                      focusNext.current = `add-${day}`;
                    }}
                  >
                    Remove
                    <span className="visually-hidden">
                      {' '}
                      {name}’s hours {index + 1}
                    </span>
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="secondary"
                id={`add-${day}`}
                disabled={week[day].length >= MAX_PERIODS_A_DAY}
                onClick={() => {
                  const last = week[day].at(-1);
                  // A second period starts where the first closed (a split shift); the first is a plain day.
                  changeDay(day, [...week[day], last ? { opens: last.closes, closes: last.closes } : { opens: '09:00', closes: '17:00' }]);
                  focusNext.current = `opens-${day}-${week[day].length}`;
                }}
              >
                {week[day].length === 0 ? `Open on ${name}` : `Add more hours on ${name}`}
              </button>
            </fieldset>
          ))}
        </fieldset>

        <fieldset>
          <legend>In apps</legend>
          <label className="check">
            <input type="checkbox" checked={shown} onChange={(event) => setShown(event.target.checked)} />
            Shown in apps
          </label>
          <p className="hint">A hidden location is not listed in apps; the register still serves it.</p>
        </fieldset>

        {owner ? (
          <>
            <FulfillmentFieldset
              chosen={fulfillment}
              onChange={setFulfillment}
              radiusInput={
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_DELIVERY_RADIUS_M}
                  step={1}
                  required
                  aria-describedby="radius-hint"
                  value={radius}
                  onChange={(event) => setRadius(event.target.value)}
                />
              }
            >
              {delivers ? (
                <p className="hint" id="radius-hint">
                  Customers within this distance of the location (a circle, up to 100,000 m) can order delivery.
                  {Number(radius) > 0 ? ` Now: ${formatDistance(Number(radius))}.` : ''}
                </p>
              ) : null}
              <label>
                Ready in (minutes)
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_READY_TIME_MINUTES}
                  step={1}
                  required
                  value={readyTime}
                  onChange={(event) => setReadyTime(event.target.value)}
                />
              </label>
            </FulfillmentFieldset>
            <fieldset>
              <legend>Tips</legend>
              {(
                [
                  ['accepts_tips_in_store', 'Accept tips in store'],
                  ['accepts_tips_on_pickup', 'Accept tips on pickup'],
                  ['accepts_tips_on_delivery', 'Accept tips on delivery'],
                ] as const
              ).map(([field, label]) => (
                <label className="check" key={field}>
                  <input type="checkbox" checked={tips[field]} onChange={(event) => setTips({ ...tips, [field]: event.target.checked })} />
                  {label}
                </label>
              ))}
            </fieldset>
          </>
        ) : (
          <>
            <OwnerSettingsFacts location={location} />
            <p className="hint">Only an owner changes the ways to order, the delivery area, the ready time and tips.</p>
          </>
        )}

        <ErrorMessage error={error} />
        {saving ? <Progress label="Saving the settings…" /> : null}
        <button type="submit" disabled={saving}>
          Save settings
        </button>
      </form>
    </section>
  );
}

import type { components } from '../../clients/typescript/index.ts';

/** A location as its merchant sets it (`GET .../locations/{id}`). */
export type LocationSettings = components['schemas']['LocationSettings']['location'];
export type OpeningPeriod = LocationSettings['hours'][number];
export type Weekday = OpeningPeriod['days'][number];
export type FulfillmentType = LocationSettings['fulfillment_types'][number];

/** The week as people read opening hours: Monday first. */
export const WEEK: readonly { day: Weekday; name: string }[] = [
  { day: 'mon', name: 'Monday' },
  { day: 'tue', name: 'Tuesday' },
  { day: 'wed', name: 'Wednesday' },
  { day: 'thu', name: 'Thursday' },
  { day: 'fri', name: 'Friday' },
  { day: 'sat', name: 'Saturday' },
  { day: 'sun', name: 'Sunday' },
];

/** The API takes at most 28 periods in a week: four a day (split shifts, late nights) keeps any edit within it. */
export const MAX_PERIODS_A_DAY = 4;

/** One day's opening period as the form edits it: `HH:MM` times of a time input. */
export interface DayPeriod {
  opens: string;
  closes: string;
}
export type WeekHours = Record<Weekday, DayPeriod[]>;

/** The fulfillment types in the order the page shows them, in words. */
export const FULFILLMENT: readonly { type: FulfillmentType; label: string }[] = [
  { type: 'in_store', label: 'In store' },
  { type: 'pickup', label: 'Pickup (order ahead)' },
  { type: 'delivery', label: 'Delivery' },
];

/**
 * The API's periods (each naming several days) as each day's own list. A time input has no `24:00`: midnight as a
 * closing time is `00:00` there, which the API reads the same way (closing at or before opening runs past midnight).
 */
export function weekOf(hours: readonly OpeningPeriod[]): WeekHours {
  const week = Object.fromEntries(WEEK.map(({ day }) => [day, [] as DayPeriod[]])) as WeekHours;
  for (const period of hours) {
    for (const day of period.days) week[day].push({ opens: period.opens, closes: period.closes === '24:00' ? '00:00' : period.closes });
  }
  for (const { day } of WEEK) week[day].sort((a, b) => a.opens.localeCompare(b.opens));
  return week;
}

/**
 * Each day's periods as the API's: days with the same times share one period (`Mon - Fri 7am - 7pm` stays one line
 * in the apps), in the order of the week. A closing time of `00:00` is sent as `24:00`, midnight.
 */
export function hoursOf(week: WeekHours): OpeningPeriod[] {
  const periods: OpeningPeriod[] = [];
  for (const { day } of WEEK) {
    for (const { opens, closes } of week[day]) {
      const sent = closes === '00:00' ? '24:00' : closes;
      const same = periods.find((period) => period.opens === opens && period.closes === sent);
      if (same) {
        if (!same.days.includes(day)) same.days.push(day);
      } else periods.push({ days: [day], opens, closes: sent });
    }
  }
  return periods;
}

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
/** `07:00` as people read it (`7:00 AM`, or `07:00` where the reader's locale counts 24 hours). */
export function formatClock(time: string): string {
  if (time === '24:00' || time === '00:00') return 'midnight';
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return clock.format(new Date(Date.UTC(2000, 0, 1, hours, minutes)));
}

/** One day's hours in words: `7:00 AM to 7:00 PM`, `Open all day`, `Closed`. */
export function dayInWords(periods: readonly DayPeriod[]): string {
  if (periods.length === 0) return 'Closed';
  return periods
    .map(({ opens, closes }) =>
      opens === '00:00' && closes === '00:00'
        ? 'Open all day'
        : `${formatClock(opens)} to ${formatClock(closes)}${closes !== '00:00' && closes <= opens ? ' (next day)' : ''}`,
    )
    .join(', ');
}

/** The fulfillment types in words: `In store, Pickup (order ahead)`. */
export function fulfillmentInWords(types: readonly FulfillmentType[]): string {
  return FULFILLMENT.filter(({ type }) => types.includes(type))
    .map(({ label }) => label)
    .join(', ');
}

/** A location's address on one line. */
export function addressOf(location: LocationSettings): string {
  return [location.street_address, location.extended_address, location.locality, `${location.region} ${location.postal_code}`]
    .filter((part) => part.trim() !== '')
    .join(', ');
}

/** A location's name as the console shows it (the internal label, else its street address). */
export const nameOf = (location: LocationSettings): string => location.name ?? location.street_address;

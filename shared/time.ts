/**
 * Time as this API writes it, and wall-clock questions asked in a location's own time zone (opening
 * hours, menu and upsell windows, reward usable hours). ICU (in Node) answers for IANA zones and daylight
 * saving, so no extra library is needed. The one list of weekdays lives here.
 */

/**
 * The one format every datetime the API writes and returns: ISO 8601 to the second with a numeric
 * UTC offset, `YYYY-MM-DDThh:mm:ss+00:00`, as the contract specifies (`±hh:mm`, never `Z`).
 * Always UTC (`+00:00`): the instant is unambiguous and sorts as text; clients that show local time
 * convert with the location's `time_zone` (docs/architecture.md, "Timestamps"). Inputs are parsed
 * with Date.parse, so they keep accepting `Z`, an offset, and fractional seconds.
 */
export const API_DATETIME_PATTERN = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

export function isoSeconds(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** Days of the week as the API spells them, in Date#getDay order (Sunday first). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MINUTES_PER_DAY = 24 * 60;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The IANA zone names as ICU spells them (`America/New_York`): the zones the process clock answers for
 * (offsetOnProcessClock). Intl also accepts aliases and any letter case (`US/Eastern`, `america/new_york`),
 * which the TZ variable may read differently; those keep the formatter.
 */
let canonicalZones: Set<string> | undefined;

function isCanonicalZone(timeZone: string): boolean {
  canonicalZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  return canonicalZones.has(timeZone);
}

export function isValidTimeZone(timeZone: string): boolean {
  if (isCanonicalZone(timeZone)) return true;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

const MS_PER_MINUTE = 60_000;

/**
 * The last answer per time zone, by UTC minute: a page of locations (and a warm function's next
 * requests within the minute) asks the same zone about the same minute many times, and formatToParts
 * is the costly part. Every zone's offset today is a whole number of minutes, so the local minute
 * changes only when the UTC minute does.
 */
const lastLocalTime = new Map<string, { minute: number; local: { weekday: Weekday; minutes: number } }>();

/**
 * The zone's UTC offset at an instant, in minutes east of UTC, read from the process clock with the TZ
 * variable pointed at the zone for the one synchronous call (Node re-reads TZ on assignment and resets its
 * time-zone cache; nothing else runs in between, and the variable is put back before returning).
 * Why not Intl: the first Intl.DateTimeFormat of a process loads ICU's locale and pattern data, 25-40 ms
 * of every cold start that reads a location's hours; the clock's zone rules are the same ICU tz data
 * without that load (under 1 ms). Canonical names only (isCanonicalZone); test/locations/time-zones.test.ts
 * checks every one against Intl across daylight-saving changes.
 */
function offsetOnProcessClock(timeZone: string, instant: Date): number {
  const processZone = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    return -new Date(instant.getTime()).getTimezoneOffset();
  } finally {
    if (processZone === undefined) delete process.env.TZ;
    else process.env.TZ = processZone;
  }
}

function localTimeOnProcessClock(instant: Date, timeZone: string): { weekday: Weekday; minutes: number } {
  const wallClock = new Date(instant.getTime() + offsetOnProcessClock(timeZone, instant) * MS_PER_MINUTE);
  return { weekday: WEEKDAYS[wallClock.getUTCDay()]!, minutes: wallClock.getUTCHours() * 60 + wallClock.getUTCMinutes() };
}

function localTimeByFormatter(instant: Date, timeZone: string): { weekday: Weekday; minutes: number } {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  const weekday = part('weekday').slice(0, 3).toLowerCase() as Weekday;
  return { weekday, minutes: (Number(part('hour')) % 24) * 60 + Number(part('minute')) };
}

/** Local weekday and minutes since local midnight of an instant in a time zone. */
export function localTime(instant: Date, timeZone: string): { weekday: Weekday; minutes: number } {
  const minute = Math.floor(instant.getTime() / MS_PER_MINUTE);
  const known = lastLocalTime.get(timeZone);
  if (known?.minute === minute) return { ...known.local };
  const local = isCanonicalZone(timeZone) ? localTimeOnProcessClock(instant, timeZone) : localTimeByFormatter(instant, timeZone);
  if (lastLocalTime.size >= 1000) lastLocalTime.clear();
  lastLocalTime.set(timeZone, { minute, local });
  return { ...local };
}

/** Minutes since midnight of a `HH:MM` clock time (`24:00` is the end of the day, 1440). */
export function parseClock(value: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) throw new Error(`Not a HH:MM time: ${value}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** A daily window of local time `HH:MM`-`HH:MM` (end exclusive; an end before the start crosses midnight). */
export interface TimeWindow {
  start: string;
  end: string;
  /** Days the window opens on (the day it starts); absent means every day. */
  days?: Weekday[];
}

function previousDay(day: Weekday): Weekday {
  return WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;
}

/** Whether an instant falls in one of the windows (no windows: always). */
export function withinWindows(windows: readonly TimeWindow[] | undefined, instant: Date, timeZone: string): boolean {
  if (!windows || windows.length === 0) return true;
  const { weekday, minutes } = localTime(instant, timeZone);
  return windows.some((window) => {
    const start = parseClock(window.start);
    const end = parseClock(window.end);
    const opensOn = (day: Weekday) => !window.days || window.days.includes(day);
    if (start === end) return opensOn(weekday);
    if (start < end) return opensOn(weekday) && minutes >= start && minutes < end;
    // Crosses midnight: the evening part opens today, the early-morning part opened yesterday.
    return (opensOn(weekday) && minutes >= start) || (opensOn(previousDay(weekday)) && minutes < end);
  });
}

/**
 * Wall-clock questions asked in a location's own time zone (menu availability windows, upsell
 * windows, ready-time slots). Uses Intl so IANA zones and daylight saving need no extra library.
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A daily window of local time `HH:MM`-`HH:MM` (end exclusive; an end before the start crosses midnight). */
export interface TimeWindow {
  start: string;
  end: string;
  /** Days the window opens on (the day it starts); absent means every day. */
  days?: Weekday[];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Local weekday and minutes since local midnight of an instant. */
export function localTime(instant: Date, timeZone: string): { weekday: Weekday; minutes: number } {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  const weekday = part('weekday').slice(0, 3).toLowerCase() as Weekday;
  return { weekday, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

export function parseClock(value: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) throw new Error(`Not a HH:MM time: ${value}`);
  return Number(match[1]) * 60 + Number(match[2]);
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

import { describe, expect, it } from 'vitest';
import { openState, parseHoursSpec } from '#shared/domain/merchants/locations.ts';
import { canonicalTimeZones, isValidTimeZone, localTime, WEEKDAYS } from '#shared/time.ts';

/** The answer as Intl gives it: what localTime returned before it read the process clock, and still does for aliases. */
const intlFormatters = new Map<string, Intl.DateTimeFormat>();
function intlLocalTime(instant: Date, timeZone: string): { weekday: string; minutes: number } {
  let formatter = intlFormatters.get(timeZone);
  if (!formatter)
    intlFormatters.set(
      timeZone,
      (formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' })),
    );
  const parts = formatter.formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return { weekday: part('weekday').slice(0, 3).toLowerCase(), minutes: (Number(part('hour')) % 24) * 60 + Number(part('minute')) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A zone's UTC offset in minutes at an instant, as Intl reads it (local wall clock minus UTC). */
function intlOffset(timeZone: string): (at: number) => number {
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (at) => {
    const parts = formatter.formatToParts(at);
    const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)!.value);
    return (Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute')) - Math.floor(at / MINUTE) * MINUTE) / MINUTE;
  };
}

describe('canonical time zones', () => {
  it("are the running Node's Intl.supportedValuesOf('timeZone'), name for name (else: npx tsx scripts/time-zones.ts)", () => {
    // The project's Node (package.json's `node` dependency, the functions' runtime major) runs the tests: a
    // newer one with new tz data fails here until the written-out list is regenerated from it.
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect([...canonicalTimeZones()]).toEqual(Intl.supportedValuesOf('timeZone'));
  });
});

describe('localTime', () => {
  it('agrees with Intl for every IANA zone, weekly through 2026-2027 and on both sides of each UTC-offset change', () => {
    const mismatches: string[] = [];
    const zones = Intl.supportedValuesOf('timeZone');
    let changes = 0;
    const check = (zone: string, at: number) => {
      const local = localTime(new Date(at), zone);
      const expected = intlLocalTime(new Date(at), zone);
      if (local.weekday !== expected.weekday || local.minutes !== expected.minutes) mismatches.push(`${zone} ${new Date(at).toISOString()}`);
    };
    for (const zone of zones) {
      const offset = intlOffset(zone);
      let previous = Date.UTC(2026, 0, 1);
      for (let at = previous; at < Date.UTC(2028, 0, 1); at += 7 * DAY + 5 * HOUR + 13 * MINUTE) {
        check(zone, at);
        if (offset(at) !== offset(previous)) {
          // The first minute of the new offset, by bisection between the two samples.
          let [low, high] = [previous, at];
          while (high - low > MINUTE) {
            const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
            if (offset(middle) === offset(previous)) low = middle;
            else high = middle;
          }
          check(zone, high - MINUTE);
          check(zone, high);
          changes++;
        }
        previous = at;
      }
    }
    expect(zones.length).toBeGreaterThan(300);
    expect(changes).toBeGreaterThan(100);
    expect(mismatches).toEqual([]);
  }, 180_000);

  it('follows daylight-saving changes to the minute, including half-hour and 45-minute zones', () => {
    const changes = [
      // New York springs forward at 07:00 UTC on 2026-03-08 (02:00 -> 03:00) and falls back at 06:00 UTC on 2026-11-01.
      { zone: 'America/New_York', at: Date.UTC(2026, 2, 8, 7), before: { weekday: 'sun', minutes: 1 * 60 + 59 }, after: { weekday: 'sun', minutes: 3 * 60 } },
      { zone: 'America/New_York', at: Date.UTC(2026, 10, 1, 6), before: { weekday: 'sun', minutes: 1 * 60 + 59 }, after: { weekday: 'sun', minutes: 1 * 60 } },
      // London at 01:00 UTC on 2026-03-29; Lord Howe moves by 30 minutes (02:00 -> 02:30 local) at 15:30 UTC on 2026-10-03.
      { zone: 'Europe/London', at: Date.UTC(2026, 2, 29, 1), before: { weekday: 'sun', minutes: 59 }, after: { weekday: 'sun', minutes: 2 * 60 } },
      {
        zone: 'Australia/Lord_Howe',
        at: Date.UTC(2026, 9, 3, 15, 30),
        before: { weekday: 'sun', minutes: 1 * 60 + 59 },
        after: { weekday: 'sun', minutes: 2 * 60 + 30 },
      },
      // Chatham (+12:45 -> +13:45) at 14:00 UTC on 2026-09-26.
      {
        zone: 'Pacific/Chatham',
        at: Date.UTC(2026, 8, 26, 14),
        before: { weekday: 'sun', minutes: 2 * 60 + 44 },
        after: { weekday: 'sun', minutes: 3 * 60 + 45 },
      },
    ];
    for (const { zone, at, before, after } of changes) {
      expect(localTime(new Date(at - MINUTE), zone), `${zone} before`).toEqual(before);
      expect(localTime(new Date(at), zone), `${zone} after`).toEqual(after);
      expect(localTime(new Date(at), zone)).toEqual(intlLocalTime(new Date(at), zone));
    }
  });

  it('answers aliases and other spellings Intl accepts through Intl, the same as the canonical name', () => {
    const at = new Date(Date.UTC(2026, 6, 15, 12, 34));
    for (const [alias, canonical] of [
      ['US/Eastern', 'America/New_York'],
      ['america/new_york', 'America/New_York'],
      ['Asia/Calcutta', 'Asia/Kolkata'],
      ['EST5EDT', 'America/New_York'],
      ['Etc/GMT+5', 'America/Bogota'],
    ] as const) {
      expect(isValidTimeZone(alias), alias).toBe(true);
      expect(localTime(at, alias), alias).toEqual(intlLocalTime(at, alias));
      expect(localTime(at, alias), alias).toEqual(localTime(at, canonical));
    }
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('leaves the process time zone as it found it', () => {
    const before = process.env.TZ;
    localTime(new Date(Date.UTC(2026, 0, 5, 12, 1)), 'Asia/Tokyo');
    expect(process.env.TZ).toBe(before);
    expect(new Date(Date.UTC(2026, 0, 5, 12)).getTimezoneOffset()).toBe(new Date(Date.UTC(2026, 0, 5, 12)).getTimezoneOffset());
    expect(WEEKDAYS[new Date(Date.UTC(2026, 0, 5)).getUTCDay()]).toBe('mon');
  });
});

describe('openState across a daylight-saving change', () => {
  it('opens at 7am local on both sides of the change in New York', () => {
    const hours = parseHoursSpec('daily 07:00-19:00');
    // Saturday 2026-03-07 is UTC-5: 7am is 12:00 UTC. Monday 2026-03-09 is UTC-4: 7am is 11:00 UTC.
    expect(openState({ hours, time_zone: 'America/New_York' }, new Date(Date.UTC(2026, 2, 7, 11, 59))).open_state).toBe('closed');
    expect(openState({ hours, time_zone: 'America/New_York' }, new Date(Date.UTC(2026, 2, 7, 12)))).toEqual({
      open_state: 'open',
      open_state_display: 'Open until 7pm',
    });
    expect(openState({ hours, time_zone: 'America/New_York' }, new Date(Date.UTC(2026, 2, 9, 10, 59)))).toEqual({
      open_state: 'closed',
      open_state_display: 'Opens at 7am',
    });
    expect(openState({ hours, time_zone: 'America/New_York' }, new Date(Date.UTC(2026, 2, 9, 11))).open_state).toBe('open');
  });
});

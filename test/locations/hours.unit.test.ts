import { describe, expect, it } from 'vitest';
import { displayHours, openState, parseHoursSpec, LocationInputError } from '#shared/domain/merchants/locations.ts';

// 2024-01-08 is a Monday. New York is UTC-5 in January, Los Angeles UTC-8.
const mondayAt = (utcTime: string, dayOffset = 0) => new Date(Date.parse(`2024-01-08T${utcTime}Z`) + dayOffset * 86_400_000);
const weekdays = parseHoursSpec('mon-fri 07:00-19:00');

describe('openState', () => {
  it('is open inside a period, read in the location time zone', () => {
    expect(openState({ hours: weekdays, time_zone: 'America/New_York' }, mondayAt('15:00'))).toEqual({
      open_state: 'open',
      open_state_display: 'Open until 7pm',
    });
    // 15:00 UTC is 07:00 in Los Angeles: opening minute.
    expect(openState({ hours: weekdays, time_zone: 'America/Los_Angeles' }, mondayAt('15:00')).open_state).toBe('open');
    expect(openState({ hours: weekdays, time_zone: 'America/Los_Angeles' }, mondayAt('14:59'))).toEqual({
      open_state: 'closed',
      open_state_display: 'Opens at 7am',
    });
  });

  it('names the day of the next opening when it is not today', () => {
    // Saturday 12:00 in New York.
    expect(openState({ hours: weekdays, time_zone: 'America/New_York' }, mondayAt('17:00', 5))).toEqual({
      open_state: 'closed',
      open_state_display: 'Opens Mon 7am',
    });
  });

  it('keeps an overnight period open past midnight, including Sunday into Monday', () => {
    const lateNights = parseHoursSpec('fri,sat 17:00-02:00; sun 20:00-01:30');
    // Saturday 01:00 in New York (Friday's period).
    expect(openState({ hours: lateNights, time_zone: 'America/New_York' }, mondayAt('06:00', 5))).toEqual({
      open_state: 'open',
      open_state_display: 'Open until 2am',
    });
    // Monday 01:00 in New York (Sunday's period).
    expect(openState({ hours: lateNights, time_zone: 'America/New_York' }, mondayAt('06:00'))).toEqual({
      open_state: 'open',
      open_state_display: 'Open until 1:30am',
    });
    // Monday 02:00 in New York: closed until Friday.
    expect(openState({ hours: lateNights, time_zone: 'America/New_York' }, mondayAt('07:00'))).toEqual({
      open_state: 'closed',
      open_state_display: 'Opens Fri 5pm',
    });
  });

  it('says open 24 hours and unknown without hours', () => {
    expect(openState({ hours: parseHoursSpec('daily 00:00-24:00'), time_zone: 'America/Chicago' }, mondayAt('09:00')).open_state_display).toBe('Open 24 hours');
    expect(openState({ hours: [], time_zone: 'America/Chicago' }, mondayAt('09:00'))).toEqual({
      open_state: 'unknown',
      open_state_display: 'Hours not posted',
    });
  });
});

describe('hours', () => {
  it('displays one line per period with day ranges', () => {
    expect(displayHours(parseHoursSpec('mon-fri 07:00-19:30; sat,sun 08:00-12:00; fri-mon 22:00-02:00'))).toBe(
      'Mon - Fri 7am - 7:30pm\nSat, Sun 8am - 12pm\nMon, Fri - Sun 10pm - 2am',
    );
    expect(displayHours(parseHoursSpec('daily 00:00-24:00'))).toBe('Mon - Sun open 24 hours');
    expect(displayHours([])).toBe('');
  });

  it('rejects an unreadable spec', () => {
    expect(() => parseHoursSpec('weekdays 7-19')).toThrow(LocationInputError);
    expect(() => parseHoursSpec('mon-fri 07:00-25:00')).toThrow(LocationInputError);
    expect(() => parseHoursSpec('mon-frx 07:00-19:00')).toThrow(/unknown day/);
  });
});

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
 * Written out rather than asked of `Intl.supportedValuesOf('timeZone')`, which makes ICU load its zone
 * enumeration, ~5-8 ms of the cold start of every function that reads a location's hours.
 * test/locations/time-zones.test.ts fails when the list and the running Node's Intl differ;
 * `npx tsx scripts/time-zones.ts` rewrites it.
 */
// canonical-time-zones:start
// Intl.supportedValuesOf('timeZone') of Node 24.21.0 (ICU 78.3, tz 2026c), by scripts/time-zones.ts.
const CANONICAL_TIME_ZONE_NAMES = `
Africa/Abidjan Africa/Accra Africa/Addis_Ababa Africa/Algiers Africa/Asmera Africa/Bamako Africa/Bangui
Africa/Banjul Africa/Bissau Africa/Blantyre Africa/Brazzaville Africa/Bujumbura Africa/Cairo Africa/Casablanca
Africa/Ceuta Africa/Conakry Africa/Dakar Africa/Dar_es_Salaam Africa/Djibouti Africa/Douala Africa/El_Aaiun
Africa/Freetown Africa/Gaborone Africa/Harare Africa/Johannesburg Africa/Juba Africa/Kampala Africa/Khartoum
Africa/Kigali Africa/Kinshasa Africa/Lagos Africa/Libreville Africa/Lome Africa/Luanda Africa/Lubumbashi
Africa/Lusaka Africa/Malabo Africa/Maputo Africa/Maseru Africa/Mbabane Africa/Mogadishu Africa/Monrovia
Africa/Nairobi Africa/Ndjamena Africa/Niamey Africa/Nouakchott Africa/Ouagadougou Africa/Porto-Novo Africa/Sao_Tome
Africa/Tripoli Africa/Tunis Africa/Windhoek
America/Adak America/Anchorage America/Anguilla America/Antigua America/Araguaina America/Argentina/La_Rioja
America/Argentina/Rio_Gallegos America/Argentina/Salta America/Argentina/San_Juan America/Argentina/San_Luis
America/Argentina/Tucuman America/Argentina/Ushuaia America/Aruba America/Asuncion America/Bahia
America/Bahia_Banderas America/Barbados America/Belem America/Belize America/Blanc-Sablon America/Boa_Vista
America/Bogota America/Boise America/Buenos_Aires America/Cambridge_Bay America/Campo_Grande America/Cancun
America/Caracas America/Catamarca America/Cayenne America/Cayman America/Chicago America/Chihuahua
America/Ciudad_Juarez America/Coral_Harbour America/Cordoba America/Costa_Rica America/Coyhaique America/Creston
America/Cuiaba America/Curacao America/Danmarkshavn America/Dawson America/Dawson_Creek America/Denver
America/Detroit America/Dominica America/Edmonton America/Eirunepe America/El_Salvador America/Fort_Nelson
America/Fortaleza America/Glace_Bay America/Godthab America/Goose_Bay America/Grand_Turk America/Grenada
America/Guadeloupe America/Guatemala America/Guayaquil America/Guyana America/Halifax America/Havana
America/Hermosillo America/Indiana/Knox America/Indiana/Marengo America/Indiana/Petersburg America/Indiana/Tell_City
America/Indiana/Vevay America/Indiana/Vincennes America/Indiana/Winamac America/Indianapolis America/Inuvik
America/Iqaluit America/Jamaica America/Jujuy America/Juneau America/Kentucky/Monticello America/Kralendijk
America/La_Paz America/Lima America/Los_Angeles America/Louisville America/Lower_Princes America/Maceio
America/Managua America/Manaus America/Marigot America/Martinique America/Matamoros America/Mazatlan America/Mendoza
America/Menominee America/Merida America/Metlakatla America/Mexico_City America/Miquelon America/Moncton
America/Monterrey America/Montevideo America/Montserrat America/Nassau America/New_York America/Nome America/Noronha
America/North_Dakota/Beulah America/North_Dakota/Center America/North_Dakota/New_Salem America/Ojinaga
America/Panama America/Paramaribo America/Phoenix America/Port-au-Prince America/Port_of_Spain America/Porto_Velho
America/Puerto_Rico America/Punta_Arenas America/Rankin_Inlet America/Recife America/Regina America/Resolute
America/Rio_Branco America/Santarem America/Santiago America/Santo_Domingo America/Sao_Paulo America/Scoresbysund
America/Sitka America/St_Barthelemy America/St_Johns America/St_Kitts America/St_Lucia America/St_Thomas
America/St_Vincent America/Swift_Current America/Tegucigalpa America/Thule America/Tijuana America/Toronto
America/Tortola America/Vancouver America/Whitehorse America/Winnipeg America/Yakutat
Antarctica/Casey Antarctica/Davis Antarctica/DumontDUrville Antarctica/Macquarie Antarctica/Mawson
Antarctica/McMurdo Antarctica/Palmer Antarctica/Rothera Antarctica/Syowa Antarctica/Troll Antarctica/Vostok
Arctic/Longyearbyen
Asia/Aden Asia/Almaty Asia/Amman Asia/Anadyr Asia/Aqtau Asia/Aqtobe Asia/Ashgabat Asia/Atyrau Asia/Baghdad
Asia/Bahrain Asia/Baku Asia/Bangkok Asia/Barnaul Asia/Beirut Asia/Bishkek Asia/Brunei Asia/Calcutta Asia/Chita
Asia/Colombo Asia/Damascus Asia/Dhaka Asia/Dili Asia/Dubai Asia/Dushanbe Asia/Famagusta Asia/Gaza Asia/Hebron
Asia/Hong_Kong Asia/Hovd Asia/Irkutsk Asia/Jakarta Asia/Jayapura Asia/Jerusalem Asia/Kabul Asia/Kamchatka
Asia/Karachi Asia/Katmandu Asia/Khandyga Asia/Krasnoyarsk Asia/Kuala_Lumpur Asia/Kuching Asia/Kuwait Asia/Macau
Asia/Magadan Asia/Makassar Asia/Manila Asia/Muscat Asia/Nicosia Asia/Novokuznetsk Asia/Novosibirsk Asia/Omsk
Asia/Oral Asia/Phnom_Penh Asia/Pontianak Asia/Pyongyang Asia/Qatar Asia/Qostanay Asia/Qyzylorda Asia/Rangoon
Asia/Riyadh Asia/Saigon Asia/Sakhalin Asia/Samarkand Asia/Seoul Asia/Shanghai Asia/Singapore Asia/Srednekolymsk
Asia/Taipei Asia/Tashkent Asia/Tbilisi Asia/Tehran Asia/Thimphu Asia/Tokyo Asia/Tomsk Asia/Ulaanbaatar Asia/Urumqi
Asia/Ust-Nera Asia/Vientiane Asia/Vladivostok Asia/Yakutsk Asia/Yekaterinburg Asia/Yerevan
Atlantic/Azores Atlantic/Bermuda Atlantic/Canary Atlantic/Cape_Verde Atlantic/Faeroe Atlantic/Madeira
Atlantic/Reykjavik Atlantic/South_Georgia Atlantic/St_Helena Atlantic/Stanley
Australia/Adelaide Australia/Brisbane Australia/Broken_Hill Australia/Darwin Australia/Eucla Australia/Hobart
Australia/Lindeman Australia/Lord_Howe Australia/Melbourne Australia/Perth Australia/Sydney
Europe/Amsterdam Europe/Andorra Europe/Astrakhan Europe/Athens Europe/Belgrade Europe/Berlin Europe/Bratislava
Europe/Brussels Europe/Bucharest Europe/Budapest Europe/Busingen Europe/Chisinau Europe/Copenhagen Europe/Dublin
Europe/Gibraltar Europe/Guernsey Europe/Helsinki Europe/Isle_of_Man Europe/Istanbul Europe/Jersey Europe/Kaliningrad
Europe/Kiev Europe/Kirov Europe/Lisbon Europe/Ljubljana Europe/London Europe/Luxembourg Europe/Madrid Europe/Malta
Europe/Mariehamn Europe/Minsk Europe/Monaco Europe/Moscow Europe/Oslo Europe/Paris Europe/Podgorica Europe/Prague
Europe/Riga Europe/Rome Europe/Samara Europe/San_Marino Europe/Sarajevo Europe/Saratov Europe/Simferopol
Europe/Skopje Europe/Sofia Europe/Stockholm Europe/Tallinn Europe/Tirane Europe/Ulyanovsk Europe/Vaduz
Europe/Vatican Europe/Vienna Europe/Vilnius Europe/Volgograd Europe/Warsaw Europe/Zagreb Europe/Zurich
Indian/Antananarivo Indian/Chagos Indian/Christmas Indian/Cocos Indian/Comoro Indian/Kerguelen Indian/Mahe
Indian/Maldives Indian/Mauritius Indian/Mayotte Indian/Reunion
Pacific/Apia Pacific/Auckland Pacific/Bougainville Pacific/Chatham Pacific/Easter Pacific/Efate Pacific/Enderbury
Pacific/Fakaofo Pacific/Fiji Pacific/Funafuti Pacific/Galapagos Pacific/Gambier Pacific/Guadalcanal Pacific/Guam
Pacific/Honolulu Pacific/Kiritimati Pacific/Kosrae Pacific/Kwajalein Pacific/Majuro Pacific/Marquesas Pacific/Midway
Pacific/Nauru Pacific/Niue Pacific/Norfolk Pacific/Noumea Pacific/Pago_Pago Pacific/Palau Pacific/Pitcairn
Pacific/Ponape Pacific/Port_Moresby Pacific/Rarotonga Pacific/Saipan Pacific/Tahiti Pacific/Tarawa Pacific/Tongatapu
Pacific/Truk Pacific/Wake Pacific/Wallis`;
// canonical-time-zones:end

let canonicalZones: ReadonlySet<string> | undefined;

export function canonicalTimeZones(): ReadonlySet<string> {
  canonicalZones ??= new Set(CANONICAL_TIME_ZONE_NAMES.trim().split(/\s+/));
  return canonicalZones;
}

function isCanonicalZone(timeZone: string): boolean {
  return canonicalTimeZones().has(timeZone);
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

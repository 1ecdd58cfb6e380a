/**
 * The phone index normalises with libphonenumber-js's core and a trimmed copy of its min metadata
 * (shared/domain/identity/phone-metadata.json, written by `npm run phone-metadata`). This holds that copy to the
 * installed package (an upgrade that is not followed by the script fails here) and its answers to the full min
 * metadata's: the package's example number of every country in each usual typed form, the lookup tests' numbers,
 * malformed and impossible ones, and seeded random digit strings, with and without a leading `+`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parsePhoneNumberFromString as parseWithFullMetadata, type CountryCode } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { normalisedPhone } from '#shared/domain/identity/phones.ts';
import { installedMinMetadata, PHONE_METADATA_FILE, trimmedPhoneMetadata } from '../../scripts/phone-metadata.ts';

/** What normalisedPhone answered with the package's whole min metadata (the behaviour before the trim). */
function fullMetadataAnswer(typed: string): string | undefined {
  const parsed = parseWithFullMetadata(typed, 'US');
  return parsed?.isPossible() ? parsed.number : undefined;
}

/** Every input whose answer differs, with both answers (empty when the trim changes nothing). */
function differences(inputs: Iterable<string>) {
  const found: { typed: string; full: string | undefined; trimmed: string | undefined }[] = [];
  for (const typed of inputs) {
    const full = fullMetadataAnswer(typed);
    const trimmed = normalisedPhone(typed);
    if (trimmed !== full) found.push({ typed, full, trimmed });
  }
  return found;
}

const examples = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('libphonenumber-js/examples.mobile.json'), 'utf8')) as Record<
  CountryCode,
  string
>;

/** One country's example as people type it: national and international, formatted, bare, with the US exit code, cut short and too long. */
function typedForms(country: CountryCode, national: string): string[] {
  const parsed = parseWithFullMetadata(national, country);
  if (parsed === undefined) return [national];
  const digits = parsed.nationalNumber;
  const international = parsed.formatInternational();
  return [
    national,
    parsed.formatNational(),
    parsed.formatNational().replace(/\D/g, ''),
    international,
    international.replace(/[^\d+]/g, ''),
    international.replace(/ /g, '-'),
    `+${parsed.countryCallingCode} (${digits.slice(0, 3)}) ${digits.slice(3)}`,
    `011 ${parsed.countryCallingCode} ${digits}`,
    `00${parsed.countryCallingCode}${digits}`,
    parsed.number,
    parsed.number.slice(0, -1),
    `${parsed.number}5`,
    `${national}0`,
    `tel:${parsed.number}`,
    `${international} ext. 12`,
  ];
}

/** Random digits from a fixed seed (a linear congruential generator), so a failure reproduces. */
let seed = 20261206;
function randomDigits(length: number): string {
  let digits = '';
  for (let position = 0; position < length; position += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    digits += String(Math.floor(seed / 65536) % 10);
  }
  return digits;
}

/** Digit strings of 3 to 17 digits, with and without a leading `+`. */
function* randomNumbers(count: number): Generator<string> {
  for (let index = 0; index < count; index += 1) {
    const digits = randomDigits(3 + (index % 15));
    yield digits;
    yield `+${digits}`;
  }
}

/**
 * Every calling code followed by national numbers of 4 to 13 random digits: where several countries share a code
 * (+1, +44, +61, +290, +599), which one a number belongs to decides the lengths that are possible.
 */
function* randomNumbersInEveryCallingCode(perLength: number): Generator<string> {
  for (const code of Object.keys(installedMinMetadata().country_calling_codes)) {
    for (let length = 4; length <= 13; length += 1) {
      for (let index = 0; index < perLength; index += 1) yield `+${code} ${randomDigits(length)}`;
    }
  }
}

const LOOKUP_TESTS_NUMBERS = [
  '(617) 555-0100',
  '+1 617-555-0100',
  '6175550100',
  '617-555-0101',
  '617 555 0102',
  '+1 (617) 555-0102',
  '+16175550106',
  '617-555-0199',
  '555-0100',
  '246813',
];

/**
 * Numbers whose country within a shared calling code decides their answer (which the full metadata finds by each
 * country's number type patterns): Canada's 7-digit 310 numbers are possible, the US's are not.
 */
const SHARED_CALLING_CODES = [
  '3101234',
  '310-1234',
  '+1 310 1234',
  '+1 310 123 4567',
  '+44 1624 123456',
  '+44 1624 12345',
  '+61 8 9162 1234',
  '+599 7 123456',
  '+290 1234',
];

/** Each example number of a country that shares its calling code, its first 1 to 4 digits then random ones, 4 to 13 digits long. */
function* randomNumbersBesideSharedExamples(): Generator<string> {
  const metadata = installedMinMetadata();
  for (const countries of Object.values(metadata.country_calling_codes)) {
    if (countries.length < 2) continue;
    for (const country of countries) {
      const example = parseWithFullMetadata(examples[country as CountryCode] ?? '', country as CountryCode);
      if (example === undefined) continue;
      for (let kept = 1; kept <= 4; kept += 1) {
        for (let length = Math.max(4, kept); length <= 13; length += 1) {
          const national = example.nationalNumber.slice(0, kept) + randomDigits(length - kept);
          yield national;
          yield `+${example.countryCallingCode}${national}`;
        }
      }
    }
  }
}

const MALFORMED = [
  '',
  ' ',
  '+',
  '++16175550100',
  '+1',
  '123',
  'call me',
  '1-800-FLOWERS',
  '+0 123 456 789',
  '+999 123456789',
  '(617) 555-0100 x12',
  '617.555.0100',
  '１６１７５５５０１００',
  '٦١٧٥٥٥٠١٠٠',
  '6'.repeat(40),
];

describe('the phone metadata the index normalises with', () => {
  it('is the installed libphonenumber-js min metadata without its formatting data (re-run `npm run phone-metadata` after an upgrade)', () => {
    const committed: unknown = JSON.parse(readFileSync(PHONE_METADATA_FILE, 'utf8'));
    expect(committed).toEqual(JSON.parse(trimmedPhoneMetadata()));
  });

  it("answers as the full min metadata for every country's example number, in every typed form", () => {
    const inputs = Object.entries(examples).flatMap(([country, national]) => typedForms(country as CountryCode, national));
    expect(inputs.length).toBeGreaterThan(200 * 10);
    expect(differences(inputs)).toEqual([]);
    // Not a vacuous comparison: most of these are possible numbers, in many calling codes.
    const indexed = new Set(inputs.map((typed) => normalisedPhone(typed)).filter((phone) => phone !== undefined));
    expect(indexed.size).toBeGreaterThan(400);
  });

  it('answers as the full min metadata for the lookup tests numbers, malformed and impossible ones, and random numbers in every calling code', () => {
    expect(
      differences([
        ...LOOKUP_TESTS_NUMBERS,
        ...SHARED_CALLING_CODES,
        ...MALFORMED,
        ...randomNumbers(2000),
        ...randomNumbersInEveryCallingCode(3),
        ...randomNumbersBesideSharedExamples(),
      ]),
    ).toEqual([]);
    expect(normalisedPhone('(617) 555-0100')).toBe('+16175550100');
    expect(normalisedPhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalisedPhone('3101234')).toBe('+13101234');
    expect(normalisedPhone('555-0100')).toBeUndefined();
    expect(normalisedPhone('call me')).toBeUndefined();
  });
});

/**
 * `npm run phone-metadata`: rewrites shared/domain/identity/phone-metadata.json, the libphonenumber-js metadata the
 * phone index normalises with (shared/domain/identity/phones.ts), from the installed package's `metadata.min.json`
 * without what only formatting reads: each numbering plan's formats, national prefix formatting rule, "national prefix
 * optional when formatting" flag and extension prefix. Parsing to E.164 and `isPossible` read none of them, and they
 * are about 60% of the file, which every function that writes a user's phone bundles. Run it after upgrading
 * libphonenumber-js: test/customers/phone-metadata.unit.test.ts fails until the committed file is the trim of the
 * installed one, and checks the trimmed and full metadata give the same answer for every number it tries.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const PHONE_METADATA_FILE = fileURLToPath(new URL('../shared/domain/identity/phone-metadata.json', import.meta.url));

/** A numbering plan of the min metadata (format version 4): an array by position. */
type NumberingPlan = unknown[];

interface MinMetadata {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, NumberingPlan>;
  nonGeographic: Record<string, NumberingPlan>;
}

/** Positions in a version 4 numbering plan that only formatting reads (libphonenumber-js's es6/metadata.js). */
const FORMATTING_ONLY_POSITIONS = [
  4, // formats
  6, // national prefix formatting rule
  9, // national prefix is optional when formatting
  13, // extension prefix (" ext. ")
];

function withoutFormatting(plan: NumberingPlan): NumberingPlan {
  const trimmed = plan.map((value, position) => (FORMATTING_ONLY_POSITIONS.includes(position) ? 0 : value));
  // The package writes an absent trailing field by leaving it out, and an absent inner one as 0.
  while (trimmed.length > 0 && (trimmed.at(-1) === 0 || trimmed.at(-1) === undefined)) trimmed.pop();
  return trimmed;
}

/** The installed libphonenumber-js's min metadata. */
export function installedMinMetadata(): MinMetadata {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve('libphonenumber-js/metadata.min.json'), 'utf8')) as MinMetadata;
}

/** The min metadata without its formatting data, as the committed file holds it (JSON text). */
export function trimmedPhoneMetadata(full: MinMetadata = installedMinMetadata()): string {
  if (full.version !== 4) throw new Error(`libphonenumber-js metadata version ${full.version}: the trim knows version 4's layout only`);
  const trimPlans = (plans: Record<string, NumberingPlan>) => Object.fromEntries(Object.entries(plans).map(([key, plan]) => [key, withoutFormatting(plan)]));
  const trimmed: MinMetadata = {
    version: full.version,
    country_calling_codes: full.country_calling_codes,
    countries: trimPlans(full.countries),
    nonGeographic: trimPlans(full.nonGeographic),
  };
  return `${JSON.stringify(trimmed)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PHONE_METADATA_FILE, trimmedPhoneMetadata());
  console.log(`wrote ${PHONE_METADATA_FILE}`);
}

import zipcodes from 'zipcodes';
import type { Geocoder, PostalAddress, Position } from '#shared/geocoding/geocoder.ts';

/**
 * The offline sandbox geocoder, for `npm start` and the tests: the centroid of the address's US ZIP
 * code, from the `zipcodes` package's data (about 44,000 US ZIP codes with their centroid, city and
 * state). Deterministic: the same postal code gives the same position, with no network. The rules
 * (docs/geocoding.md):
 * - the postal code is a 5-digit ZIP code or ZIP+4 (`02114`, `02114-1234`, `021141234`);
 * - the ZIP code is in the data;
 * - the region, when it names a US state or DC (two-letter code or full name, any case), is that
 *   ZIP code's state: an address whose region contradicts its ZIP code is not placed.
 * Anything else cannot be geocoded. Street and city are not used: a ZIP centroid is what it returns.
 *
 * This module (and the package's 5 MB of data) is loaded only when the sandbox is the configured
 * geocoder; deployed bundles never contain it (docs/geocoding.md, "Bundles").
 */

const ZIP = /^(\d{5})(?:-?\d{4})?$/;

export function sandboxPosition(address: Pick<PostalAddress, 'postal_code' | 'region'>): Position | undefined {
  const zip = ZIP.exec(address.postal_code.trim())?.[1];
  if (!zip) return undefined;
  const place = zipcodes.lookup(zip);
  if (!place || place.country !== 'US') return undefined;
  const region = address.region.trim();
  const state = region.length === 2 ? region.toUpperCase() : zipcodes.states.full[region.toUpperCase()];
  if (state !== undefined && zipcodes.states.abbr[state] !== undefined && state !== place.state) return undefined;
  return { latitude: place.latitude, longitude: place.longitude };
}

export class SandboxGeocoder implements Geocoder {
  async geocode(address: PostalAddress): Promise<Position | undefined> {
    return sandboxPosition(address);
  }
}

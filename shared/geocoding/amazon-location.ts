import type { GeocodeCommandInput, GeocodeFilterPlaceType, GeoPlacesClient } from '@aws-sdk/client-geo-places';
import { loadedOnFirstUse } from '#shared/env.ts';
import type { Geocoder, PostalAddress, Position } from '#shared/geocoding/geocoder.ts';

/**
 * Amazon Location Service's Places API (`geo-places:Geocode`), authorized by the function's IAM role
 * (infra/constructs/geocoder.ts grants exactly that action on the Places provider resource).
 *
 * - The query is the one-line address without the unit (`extended_address` does not help placing it).
 * - Only results at least as precise as a postal code are taken: a city or region centroid is not a
 *   position anything can be delivered to.
 * - `IntendedUse: Storage`, because the position is stored with the address (the service's terms
 *   require it for results that are kept).
 * - A bounded wait: geocoding is a convenience; when the service is slow or failing the address is
 *   saved without coordinates (shared/domain/identity/addresses.ts logs it) rather than failing the request.
 * - @aws-sdk/client-geo-places is loaded on the first geocoding, not at import (`loadedOnFirstUse`,
 *   shared/env.ts). index.ts imports this module only when chosen, but a bundle inlines it, and esbuild
 *   hoists its static imports of external packages to the top of the (ESM) bundle: the address functions
 *   loaded the Places client at every cold start, including those of requests that send coordinates or
 *   fail validation.
 */

const places = loadedOnFirstUse(() => import('@aws-sdk/client-geo-places'));

export const ACCEPTED_PLACE_TYPES: GeocodeFilterPlaceType[] = [
  'PointAddress',
  'InterpolatedAddress',
  'SecondaryAddress',
  'Street',
  'Intersection',
  'PostalCode',
];
const TIMEOUT_MS = 2_000;

export interface AmazonLocationGeocoderOptions {
  /** ISO 3166 alpha-3 codes the results are limited to (GEOCODER_COUNTRIES, default USA). */
  countries: string[];
  /** Injected for tests of the request mapping; a real client otherwise. */
  client?: Pick<GeoPlacesClient, 'send'>;
}

export function geocodeRequest(address: PostalAddress, countries: string[]): GeocodeCommandInput {
  const line = [address.street_address, address.locality, `${address.region} ${address.postal_code}`.trim()].filter((part) => part.trim() !== '').join(', ');
  return {
    QueryText: line,
    MaxResults: 1,
    Filter: { IncludeCountries: countries, IncludePlaceTypes: ACCEPTED_PLACE_TYPES },
    IntendedUse: 'Storage',
  };
}

export class AmazonLocationGeocoder implements Geocoder {
  #client: Pick<GeoPlacesClient, 'send'> | undefined;
  readonly #countries: string[];

  constructor(options: AmazonLocationGeocoderOptions) {
    this.#client = options.client;
    this.#countries = options.countries;
  }

  async geocode(address: PostalAddress): Promise<Position | undefined> {
    const { GeocodeCommand, GeoPlacesClient } = await places();
    this.#client ??= new GeoPlacesClient({ maxAttempts: 2 });
    const result = await this.#client.send(new GeocodeCommand(geocodeRequest(address, this.#countries)), { abortSignal: AbortSignal.timeout(TIMEOUT_MS) });
    const best = result.ResultItems?.find((item) => item.PlaceType !== undefined && (ACCEPTED_PLACE_TYPES as string[]).includes(item.PlaceType));
    const [longitude, latitude] = best?.Position ?? [];
    return typeof latitude === 'number' && typeof longitude === 'number' ? { latitude, longitude } : undefined;
  }
}

/**
 * The geocoder port: a postal address in, a map position out (or nothing when the address cannot be
 * placed). User addresses are geocoded when clients send them without coordinates, so that a
 * delivery to them can be checked against a location's delivery area.
 *
 * Adapters (chosen by configuration, shared/geocoding/index.ts): Amazon Location Service in AWS
 * (amazon-location.ts), an offline sandbox of US postal-code centroids locally and in tests
 * (sandbox.ts). docs/geocoding.md describes both.
 */

export interface PostalAddress {
  street_address: string;
  extended_address: string;
  locality: string;
  region: string;
  postal_code: string;
}

export interface Position {
  latitude: number;
  longitude: number;
}

export interface Geocoder {
  /** The address's position, or undefined when it cannot be geocoded (unknown, ambiguous, too coarse). */
  geocode(address: PostalAddress): Promise<Position | undefined>;
}

import { createLocation, type LocationInput, type LocationItem } from '#shared/domain/merchants/locations.ts';

/**
 * Where a test's new location stands (1 Main St, Boston, New York time): the place of locationFixture, and the
 * address of the location bodies tests send to `POST /v15/merchants/{merchant_id}/locations`.
 */
export const LOCATION_PLACE = {
  street_address: '1 Main St',
  locality: 'Boston',
  region: 'MA',
  postal_code: '02110',
  latitude: 42.35,
  longitude: -71.05,
  time_zone: 'America/New_York',
} satisfies Partial<LocationInput>;

/**
 * THE location fixture: a location made through the domain library (as the admin CLI and the demo seed
 * make them). Defaults: "Downtown", 1 Main St, Boston, in-store only, open every day 07:00-21:00 New
 * York time; tests override what they are about.
 */
export async function locationFixture(merchantId: number, overrides: Partial<LocationInput> = {}): Promise<LocationItem> {
  return createLocation({
    merchant_id: merchantId,
    name: 'Downtown',
    ...LOCATION_PLACE,
    hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], opens: '07:00', closes: '21:00' }],
    ...overrides,
  });
}

/** The URL of a response's `Link: <url>; rel="next"` header, if it has one. */
export function nextLink(headers: Headers): string | undefined {
  const link = headers.get('link');
  return link ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
}

/** A v14 location's link and phone fields: the reference fixtures fill them, ours are null where a merchant has none. */
export const V14_LOCATION_OPTIONAL_LINKS = [
  '$.location.twitter_url',
  '$.location.yelp_url',
  '$.location.facebook_url',
  '$.location.opentable_url',
  '$.location.newsletter_url',
  '$.location.foodler_url',
  '$.location.phone',
];

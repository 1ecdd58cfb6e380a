import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../support/answers.ts';
import { useTestApi, type ApiResult } from '../support/api.ts';
import { appFixture, merchantFixture } from '../support/fixtures.ts';
import { locationFixture, nextLink } from '../support/locations.ts';
import { walkPages } from '../support/paging.ts';
import { distanceInMeters, LOCATIONS_PAGE_SIZE, type LocationItem } from '#shared/domain/merchants/locations.ts';

const CONTRACT_FIELDS = [
  'accepts_tips_in_store',
  'accepts_tips_on_delivery',
  'accepts_tips_on_pickup',
  'categories',
  'extended_address',
  'facebook_url',
  'menu_url',
  'newsletter_url',
  'opentable_url',
  'twitter_url',
  'yelp_url',
  'fulfillment_types',
  'hours',
  'id',
  'image_url',
  'latitude',
  'longitude',
  'locality',
  'merchant_description_html',
  'merchant_id',
  'merchant_name',
  'merchant_tip_preference',
  'open_state',
  'open_state_display',
  'partner_ids',
  'pickup_menu_url',
  'postal_code',
  'ready_time_estimate_in_minutes',
  'region',
  'shown',
  'street_address',
  'time_zone',
  'updated_at',
  'supports_scheduling',
].sort();

/** Where distance is measured from; the in-store locations lie north of it at shuffled distances. */
const ORIGIN = { lat: 42.0, lng: -71.0 };
const IN_STORE_COUNT = 23;

const api = useTestApi();
let globalAppId: number;
let partnerAppId: number;
let inStore: LocationItem[];
let pickupOnly: LocationItem[];
let deliveryNear: LocationItem;
let deliveryFar: LocationItem;
let pickupAndDelivery: LocationItem;
let otherMerchantLocation: LocationItem;

beforeAll(async () => {
  const { app } = await appFixture({ global: true });
  globalAppId = app.app_id;
  const { merchant: coffee } = await merchantFixture(app.app_id);
  const { merchant: pizza } = await merchantFixture(app.app_id);
  const { merchant: tacos } = await merchantFixture(app.app_id);
  partnerAppId = (await appFixture({ global: false, merchantIds: [pizza.merchant_id, tacos.merchant_id] })).app.app_id;

  // Created one at a time so ids follow this order; distance from ORIGIN is deliberately not id order.
  inStore = [];
  for (let index = 0; index < IN_STORE_COUNT; index++) {
    const step = (index * 7) % IN_STORE_COUNT;
    inStore.push(
      await locationFixture(coffee.merchant_id, {
        latitude: ORIGIN.lat + 0.01 * (step + 1),
        longitude: ORIGIN.lng,
        fulfillment_types: index % 4 === 0 ? ['in_store', 'pickup'] : ['in_store'],
      }),
    );
  }
  pickupOnly = [
    await locationFixture(pizza.merchant_id, { fulfillment_types: ['pickup'] }),
    await locationFixture(pizza.merchant_id, { fulfillment_types: ['pickup'] }),
  ];
  deliveryNear = await locationFixture(pizza.merchant_id, {
    fulfillment_types: ['delivery'],
    delivery_radius_m: 5000,
    latitude: ORIGIN.lat + 0.02,
    longitude: ORIGIN.lng,
  });
  deliveryFar = await locationFixture(tacos.merchant_id, {
    fulfillment_types: ['delivery'],
    delivery_radius_m: 1000,
    latitude: ORIGIN.lat + 0.05,
    longitude: ORIGIN.lng,
  });
  pickupAndDelivery = await locationFixture(tacos.merchant_id, {
    fulfillment_types: ['pickup', 'delivery'],
    delivery_radius_m: 20_000,
    latitude: ORIGIN.lat + 0.1,
    longitude: ORIGIN.lng,
  });
  await locationFixture(tacos.merchant_id, { fulfillment_types: ['in_store', 'pickup', 'delivery'], delivery_radius_m: 50_000, shown: false });
  otherMerchantLocation = await locationFixture(tacos.merchant_id, { fulfillment_types: ['in_store'] });
});

function ids(response: ApiResult): number[] {
  return (response.body as { location: { id: number } }[]).map((entry) => entry.location.id);
}

/** Walks a list from a URL by its Links to the 204 (test/support/paging.ts); returns the 200 pages and every URL asked. */
async function followPages(firstUrl: string): Promise<{ responses: ApiResult[]; urls: string[] }> {
  const walk = await walkPages(api, firstUrl, { keyOf: (item: { location: { id: number } }) => item.location.id });
  return { responses: walk.pages, urls: walk.urls };
}

const locationsPath = (appId: number, query = '') => `/v15/apps/${appId}/locations${query}`;
const inStoreIds = () => [...inStore.map((location) => location.location_id), otherMerchantLocation.location_id].sort((a, b) => a - b);

describe('GET /v15/apps/:app_id/locations paging', () => {
  it('pages through in-store locations in id order, with Link on every page, the last one too, to a 204', async () => {
    const { responses } = await followPages(locationsPath(globalAppId));
    const expected = inStoreIds();
    const pageCount = Math.ceil(expected.length / LOCATIONS_PAGE_SIZE);
    expect(responses.map((response) => response.status)).toEqual(Array(pageCount).fill(200));
    expect(responses.map((response) => ids(response).length)).toEqual([10, 10, expected.length - 20]);
    expect(responses.flatMap(ids)).toEqual(expected);
  });

  it('answers 204 with no body and no Link past the last page', async () => {
    for (const query of ['?page=4', '?page=999999999999', `?page=4&lat=${ORIGIN.lat}&lng=${ORIGIN.lng}`]) {
      const response = await api.call('GET', locationsPath(globalAppId, query));
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers.get('link')).toBeNull();
    }
  });

  it('gives an absolute Link that carries every query parameter forward with the next page', async () => {
    const query = '?fulfillment_types=in_store,pickup&image[width]=320&image[height]=200&image[density]=2&deduplicate=true';
    const response = await api.call('GET', locationsPath(globalAppId, query));
    expect(response.status).toBe(200);
    expect(response.headers.get('link')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v15\/apps\/\d+\/locations\?[^>]+>; rel="next"$/);
    const next = new URL(nextLink(response.headers)!);
    expect(`${next.protocol}//${next.host}`).toBe(api.baseUrl);
    expect(next.searchParams.get('fulfillment_types')).toBe('in_store,pickup');
    expect(next.searchParams.get('image[width]')).toBe('320');
    expect(next.searchParams.get('image[height]')).toBe('200');
    expect(next.searchParams.get('image[density]')).toBe('2');
    expect(next.searchParams.get('deduplicate')).toBe('true');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('after')).toBe(String(ids(response).at(-1)));
  });

  it('serves a page from `page` alone, as a client that builds ?page=N itself asks', async () => {
    const { responses } = await followPages(locationsPath(globalAppId));
    for (const [index, followed] of responses.entries()) {
      const direct = await api.call('GET', locationsPath(globalAppId, `?page=${index + 1}`));
      expect(direct.status).toBe(200);
      expect(ids(direct)).toEqual(ids(followed));
      expect(nextLink(direct.headers) === undefined).toBe(nextLink(followed.headers) === undefined);
    }
  });
});

describe('distance ordering', () => {
  it('orders every page by increasing distance from lat/lng and links by page number', async () => {
    const { responses, urls } = await followPages(locationsPath(globalAppId, `?lat=${ORIGIN.lat}&lng=${ORIGIN.lng}`));
    expect(responses.flatMap(ids).sort((a, b) => a - b)).toEqual(inStoreIds());
    const distances = responses.flatMap((response) =>
      (response.body as { location: { latitude: number; longitude: number } }[]).map(({ location }) =>
        distanceInMeters(ORIGIN, { lat: location.latitude, lng: location.longitude }),
      ),
    );
    for (let index = 1; index < distances.length; index++) expect(distances[index]).toBeGreaterThanOrEqual(distances[index - 1]!);
    const second = new URL(urls[1]!);
    expect(second.searchParams.get('lat')).toBe(String(ORIGIN.lat));
    expect(second.searchParams.get('lng')).toBe(String(ORIGIN.lng));
    expect(second.searchParams.get('page')).toBe('2');
    expect(second.searchParams.has('after')).toBe(false);
  });
});

describe('fulfillment filters', () => {
  const listAll = async (appId: number, query: string) => (await followPages(locationsPath(appId, query))).responses.flatMap(ids).sort((a, b) => a - b);

  it('lists in-store locations by default', async () => {
    expect(await listAll(globalAppId, '')).toEqual(inStoreIds());
  });

  it('returns a location that offers any listed type, and never a hidden one', async () => {
    const pickup = [...inStore.filter((location) => location.fulfillment_types.includes('pickup')), ...pickupOnly, pickupAndDelivery].map(
      (location) => location.location_id,
    );
    expect(await listAll(globalAppId, '?fulfillment_types=pickup')).toEqual([...pickup].sort((a, b) => a - b));
    expect(await listAll(globalAppId, '?fulfillment_types=delivery,pickup')).toEqual(
      [...pickup, deliveryNear.location_id, deliveryFar.location_id].sort((a, b) => a - b),
    );
  });

  it('rejects an unknown fulfillment type with 422', async () => {
    const response = await api.call('GET', locationsPath(globalAppId, '?fulfillment_types=pickup,drive_thru'));
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      errorBody('request', 'fulfillment_types', 'Fulfillment types must be a comma-separated list of delivery, in_store, pickup', 'invalid'),
    );
  });
});

describe('in_delivery_area', () => {
  it('lists only locations whose delivery area contains lat/lng, nearest first', async () => {
    const response = await api.call('GET', locationsPath(globalAppId, `?in_delivery_area=true&fulfillment_types=delivery&lat=${ORIGIN.lat}&lng=${ORIGIN.lng}`));
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([deliveryNear.location_id, pickupAndDelivery.location_id]);
  });

  it('requires lat and lng', async () => {
    const response = await api.call('GET', locationsPath(globalAppId, '?in_delivery_area=true&fulfillment_types=delivery'));
    expect(response.status).toBe(422);
    expect(response.body.map((entry: { error: { property: string } }) => entry.error.property).sort()).toEqual(['lat', 'lng']);
    expect(response.body[0].error).toMatchObject({ object: 'request', message: 'Lat is required when in_delivery_area is true' });
  });

  it('requires fulfillment_types to be exactly delivery', async () => {
    for (const types of ['', '&fulfillment_types=delivery,pickup', '&fulfillment_types=pickup']) {
      const response = await api.call('GET', locationsPath(globalAppId, `?in_delivery_area=true&lat=42&lng=-71${types}`));
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorBody('request', 'fulfillment_types', 'Fulfillment types must be delivery when in_delivery_area is true', 'invalid'));
    }
  });
});

describe('location fields', () => {
  it('has exactly the contract fields, and image_url only with width, height and density', async () => {
    const plain = await api.call('GET', locationsPath(globalAppId));
    const location = plain.body[0].location;
    expect(Object.keys(location).sort()).toEqual(CONTRACT_FIELDS);
    expect(location).toMatchObject({ partner_ids: {}, time_zone: 'America/New_York', shown: true, hours: 'Mon - Sun 7am - 9pm', image_url: null });
    expect(['open', 'closed']).toContain(location.open_state);
    expect(location.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

    const partial = await api.call('GET', locationsPath(globalAppId, '?image[width]=320&image[height]=200'));
    expect(partial.body[0].location.image_url).toBeNull();

    const full = await api.call('GET', locationsPath(globalAppId, '?image[width]=320&image[height]=200&image[density]=1.5'));
    const imageUrl = new URL(full.body[0].location.image_url);
    expect(`${imageUrl.protocol}//${imageUrl.host}${imageUrl.pathname}`).toBe(`${api.baseUrl}/v15/locations/${location.id}/image`);
    expect(Object.fromEntries(imageUrl.searchParams)).toEqual({ width: '320', height: '200', density: '1.5' });
  });
});

describe('app scope', () => {
  it('lists only the merchants of a non-global app, merged in id order', async () => {
    const query = '?fulfillment_types=in_store,pickup,delivery';
    const expected = [...pickupOnly, deliveryNear, deliveryFar, pickupAndDelivery, otherMerchantLocation]
      .map((location) => location.location_id)
      .sort((a, b) => a - b);
    const { responses } = await followPages(locationsPath(partnerAppId, query));
    expect(responses.flatMap(ids)).toEqual(expected);
  });

  it('answers 404 with an empty body for an unknown app', async () => {
    for (const path of [locationsPath(999_999), '/v15/apps/abc/locations']) {
      const response = await api.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.text).toBe('');
    }
  });
});

describe('invalid query parameters', () => {
  it.each([
    ['lat=abc&lng=-71', 'lat'],
    ['lat=91&lng=-71', 'lat'],
    ['lat=42&lng=', 'lng'],
    ['lat=42', 'lng'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=x', 'page'],
    ['page=1.5', 'page'],
    ['in_delivery_area=maybe', 'in_delivery_area'],
    ['image[width]=wide&image[height]=10&image[density]=1', 'image[width]'],
    ['image[width]=10&image[height]=10&image[density]=-1', 'image[density]'],
    ['after=abc', 'after'],
  ])('answers 422 for %s', async (query, property) => {
    const response = await api.call('GET', locationsPath(globalAppId, `?${query}`));
    expect(response.status).toBe(422);
    expect(response.body).toEqual([{ error: expect.objectContaining({ object: 'request', property }) }]);
    expect(response.body[0].error.message).toEqual(expect.any(String));
  });
});

// Last: it adds locations the global app would list in the tests above.
describe('resuming', () => {
  it('resumes from a stored URL: 204 while nothing is new, then 200 with only the new locations', async () => {
    const { merchant } = await merchantFixture(globalAppId);
    const resumingApp = (await appFixture({ global: false, merchantIds: [merchant.merchant_id] })).app.app_id;
    for (let index = 0; index < LOCATIONS_PAGE_SIZE + 1; index++) await locationFixture(merchant.merchant_id);

    const first = await api.call('GET', locationsPath(resumingApp));
    const storedUrl = nextLink(first.headers)!;
    const second = await api.call('GET', storedUrl);
    expect(ids(second)).toHaveLength(1);

    // The last page links the position after its location: what a client stores to resume from.
    const pastTheEnd = nextLink(second.headers)!;
    expect(new URL(pastTheEnd).searchParams.get('after')).toBe(String(ids(second)[0]));
    expect(new URL(pastTheEnd).searchParams.get('page')).toBe('3');
    expect((await api.call('GET', pastTheEnd)).status).toBe(204);
    const added = await locationFixture(merchant.merchant_id);
    const resumed = await api.call('GET', pastTheEnd);
    expect(resumed.status).toBe(200);
    expect(ids(resumed)).toEqual([added.location_id]);
    expect(ids(await api.call('GET', storedUrl))).toEqual([...ids(second), added.location_id]);
  });
});

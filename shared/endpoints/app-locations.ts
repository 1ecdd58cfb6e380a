import * as z from '#shared/schemas/zod.ts';
import type { ApiRequest, ApiResponse } from '#shared/http/handler.ts';
import { carriedPosition, pageAnswer, pageQuery } from '#shared/http/paging.ts';
import { notFound } from '#shared/errors.ts';
import { getApp } from '#shared/domain/identity/apps.ts';
import { listAppLocations, serializeLocation, type LocationItem } from '#shared/domain/merchants/locations.ts';
import { categoryName } from '#shared/domain/app-surface/categories.ts';
import { fulfillmentTypesList } from '#shared/schemas/locations.ts';
import { decimalQuery, latitudeQuery, longitudeQuery, optionalQuery, pathId, positiveInteger, requireLatLngTogether } from '#shared/schemas/params.ts';

/**
 * An app's locations, shared by GET /v15/apps/:app_id/locations and its v14 form (A29): no credential.
 * Query errors are 422 with object `request` and the parameter's name as property; an unknown app is 404
 * with an empty body.
 */

export const appLocationsQuery = z
  .object({
    fulfillment_types: optionalQuery(fulfillmentTypesList),
    page: pageQuery,
    in_delivery_area: optionalQuery(
      z.pipe(
        z.enum(['true', 'false'], { message: 'must be true or false' }),
        z.transform((value) => value === 'true'),
      ),
    ),
    lat: optionalQuery(latitudeQuery),
    lng: optionalQuery(longitudeQuery),
    'image[width]': optionalQuery(positiveInteger('must be a whole number of 1 or more')),
    'image[height]': optionalQuery(positiveInteger('must be a whole number of 1 or more')),
    'image[density]': optionalQuery(z.pipe(decimalQuery('must be a number'), z.number().check(z.positive('must be greater than 0')))),
    /** Cursor this API puts in its own next-page links: the last location id of the previous page. */
    after: optionalQuery(positiveInteger('must be a location id')),
  })
  .check(
    z.superRefine((query, context) => {
      requireLatLngTogether(query, context);
      if (query.in_delivery_area) {
        if (query.lat === undefined && query.lng === undefined) {
          for (const name of ['lat', 'lng']) context.addIssue({ code: 'custom', path: [name], message: 'is required when in_delivery_area is true' });
        }
        const types = query.fulfillment_types;
        if (!(types?.length === 1 && types[0] === 'delivery')) {
          context.addIssue({ code: 'custom', path: ['fulfillment_types'], message: 'must be delivery when in_delivery_area is true' });
        }
      }
    }),
  );

export const appLocationsParams = z.object({ app_id: pathId });

/** What iOS's location factory reads beyond the contract's Location in the v14 list (A29 fixture). */
function v14LocationFields(location: LocationItem) {
  return {
    name: location.name ?? location.merchant_name ?? '',
    phone: location.phone ?? null,
    visible: location.shown,
    category_names: location.categories.map(categoryName),
  };
}

/**
 * One page of an app's locations as GET /v15/apps/:app_id/locations (and its v14 form, A29) answer it;
 * `version` names the path of the next page's Link (iOS rebuilds it with only the version replaced).
 */
export async function serveAppLocations(
  request: ApiRequest<undefined, z.output<typeof appLocationsQuery>, z.output<typeof appLocationsParams>>,
  version: 'v14' | 'v15',
): Promise<ApiResponse> {
  const { query } = request;
  const app = await getApp(request.params.app_id);
  if (!app) throw notFound();

  const near = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  const page = query.page ?? 1;
  const result = await listAppLocations(app, {
    fulfillmentTypes: query.fulfillment_types ?? ['in_store'],
    near,
    inDeliveryArea: query.in_delivery_area === true,
    page,
    // Distance order is by page number only: a cursor in id order means nothing there.
    after: near ? undefined : query.after,
  });
  const width = query['image[width]'];
  const height = query['image[height]'];
  const density = query['image[density]'];
  const image = width !== undefined && height !== undefined && density !== undefined ? { width, height, density } : undefined;
  const now = new Date();
  return pageAnswer(
    request.baseUrl,
    {
      items: result.locations,
      after: (last) => nextLocationsPosition(request.event.queryStringParameters, `/${version}/apps/${app.app_id}/locations`, page, near ? undefined : last),
    },
    (locations) =>
      locations.map((location) => {
        const serialized = serializeLocation(location, { baseUrl: request.baseUrl, image, now });
        return { location: version === 'v14' ? { ...serialized, ...v14LocationFields(location) } : serialized };
      }),
  );
}

/**
 * The page after one of a locations list (an app's, a merchant's): the request's parameters carried forward,
 * the next page number and, in id order, the `after` cursor of the page's last location (distance order is
 * by page number only: an id cursor means nothing there).
 */
export function nextLocationsPosition(parameters: Record<string, string | undefined> | undefined, path: string, page: number, last: LocationItem | undefined) {
  return carriedPosition(parameters, path, { page: String(page + 1), after: last ? String(last.location_id) : undefined });
}

import { apiHandler } from '#shared/http/handler.ts';
import { appLocationsParams, appLocationsQuery, serveAppLocations } from '#shared/endpoints/app-locations.ts';

/**
 * GET /v14/apps/:app_id/locations (A29): the v14 form iOS, Android and the Ruby gem call; the same list
 * as v15 (shared/endpoints/app-locations.ts), its next-page Link on the v14 path. PowerShell's `deduplicate`
 * is accepted and needs nothing: a location is listed once.
 */
export const handler = apiHandler(
  'locations-list-v14',
  { summary: "List an app's locations (v14)", paged: true, query: appLocationsQuery, params: appLocationsParams },
  (request) => serveAppLocations(request, 'v14'),
);

import { apiHandler } from '#shared/http/handler.ts';
import { appLocationsParams, appLocationsQuery, serveAppLocations } from '#shared/endpoints/app-locations.ts';

/** GET /v15/apps/:app_id/locations (shared/endpoints/app-locations.ts). */
export const handler = apiHandler(
  'locations-list',
  { summary: "List an app's locations", paged: true, query: appLocationsQuery, params: appLocationsParams },
  (request) => serveAppLocations(request, 'v15'),
);

import { apiHandler } from '#shared/http/handler.ts';
import { appLocationsParams, appLocationsQuery, serveAppLocations } from '#shared/http/app-locations.ts';

/** GET /v15/apps/:app_id/locations (shared/http/app-locations.ts). */
export const handler = apiHandler(
  'locations-list',
  { summary: "List an app's locations", paged: true, query: appLocationsQuery, params: appLocationsParams },
  (request) => serveAppLocations(request, 'v15'),
);

import { staffWriteHandler } from '#shared/http/management.ts';
import { LOCATION_NOT_FOUND, changeLocationSettings, locationSettingsView } from '#shared/domain/merchants/location-settings.ts';
import { locationSettingsSchemas, merchantLocationParams } from '#shared/schemas/location-settings.ts';

/** PUT /v15/merchants/:merchant_id/locations/:location_id (owner; a manager hours and shown only): a partial update. */
export const handler = staffWriteHandler(
  'location-settings-update',
  {
    summary: "Change a location's hours, fulfillment types, delivery area, tips, ready-time estimate or shown (owner; manager: hours and shown)",
    description:
      'Only the fields sent change. A manager sending any other field: 403 role_not_allowed. The location the change leaves must keep the rules of creation (a location that delivers has `delivery_radius_m`): 422. Another change committed since this one read the location: 409 location_changed with Retry-After. See docs/merchant-api.md, "Locations".',
    body: locationSettingsSchemas().locationUpdateBody,
    bodyObject: 'location',
    params: merchantLocationParams,
    notFound: LOCATION_NOT_FOUND,
  },
  locationSettingsView,
  (request, staff) => changeLocationSettings({ ...staff, locationId: request.params.location_id, change: request.body.location }),
);

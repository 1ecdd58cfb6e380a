import { staffWriteHandler } from '#shared/http/management.ts';
import { createMerchantLocation, locationSettingsView } from '#shared/domain/merchants/location-settings.ts';
import { locationSettingsSchemas, merchantLocationsParams } from '#shared/schemas/location-settings.ts';

/** POST /v15/merchants/:merchant_id/locations (owner): a new location, made as the operators' CLI makes one. */
export const handler = staffWriteHandler(
  'location-settings-create',
  {
    summary: 'Create a location (owner)',
    description:
      'The same rules and defaults as the operators\' `create-location`: the location serves the app and POS routes at once (hidden ones too: `shown: false` keeps it out of app lists). A location that delivers needs `delivery_radius_m`, one that does not has none. See docs/merchant-api.md, "Locations".',
    body: locationSettingsSchemas().locationCreateBody,
    bodyObject: 'location',
    params: merchantLocationsParams,
  },
  locationSettingsView,
  (request, staff) => createMerchantLocation({ ...staff, fields: request.body.location }),
);

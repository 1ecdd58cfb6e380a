import { staffListHandler } from '#shared/http/management-lists.ts';
import { isLocationCursor, listLocationSettings, locationPosition, locationSettingsView } from '#shared/domain/merchants/location-settings.ts';
import { merchantLocationsParams } from '#shared/schemas/location-settings.ts';

/** GET /v15/merchants/:merchant_id/all_locations (any role): the merchant's locations by id, hidden ones too, paged by Link; 204 past the end. */
export const handler = staffListHandler(
  'location-settings-list',
  {
    summary: "List the merchant's locations as it sets them, hidden ones included (any role)",
    description:
      'The stored settings of every location of the merchant, 50 a page by id, `Link` to the next; 204 past the end. The public `GET /v15/merchants/{merchant_id}/locations` lists the shown ones as apps see them. See docs/merchant-api.md, "Locations".',
    params: merchantLocationsParams,
  },
  {
    collection: 'all_locations',
    read: listLocationSettings,
    // The cursor is the last location's index sort key.
    sortKey: locationPosition,
    isSortKey: isLocationCursor,
    render: (shown) => shown.map(locationSettingsView),
  },
);

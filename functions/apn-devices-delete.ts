import * as z from '#shared/schemas/zod.ts';
import { apiHandler, noContent } from '#shared/http/handler.ts';
import { deviceApp, unregisterDevice } from '#shared/domain/notifications/devices.ts';
import { apnDeviceDeleteQuery, apnToken } from '#shared/schemas/devices.ts';

const params = z.object({ token: apnToken });

/**
 * DELETE /v15/apn_devices/:token?api_key= (I18, iOS): the device stops receiving the app's notifications.
 * The app's key and the device's token are the credential (as LevelUp's; a user token is optional: iOS may
 * have signed out first). 204 whether or not it was registered; a token that is not APNs hex is 404.
 */
export const handler = apiHandler(
  'apn-devices-delete',
  { query: apnDeviceDeleteQuery, params, summary: 'Unregister a push-notification device (APNs)' },
  async (request) => {
    const appId = await deviceApp(request.query.api_key, request.credentials.user);
    await unregisterDevice(appId, request.params.token);
    return noContent();
  },
);

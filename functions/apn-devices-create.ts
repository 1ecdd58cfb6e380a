import { apiHandler, noContent, ok } from '#shared/http/handler.ts';
import { deviceApp, registerDevice } from '#shared/domain/notifications/devices.ts';
import { apnDeviceRequest } from '#shared/schemas/devices.ts';

/**
 * POST /v15/apn_devices (I17, iOS) — the app's api_key in the body, the user token (when signed in) in the
 * header: the device then receives that user's notifications through that app (docs/app-surface.md, "Push
 * notifications"). Without a user token nothing is stored (every notification is a user's) and the answer is
 * 204: iOS registers its token again at each launch, so it is stored once the user signs in.
 */
export const handler = apiHandler(
  'apn-devices-create',
  { body: apnDeviceRequest, bodyObject: 'apn_device', summary: 'Register a push-notification device (APNs)' },
  async (request) => {
    const user = request.credentials.user;
    const appId = await deviceApp(request.body.api_key, user);
    if (!user) return noContent();
    const { token, sandbox, device_identifier } = request.body.apn_device;
    const device = await registerDevice({ appId, userId: user.userId, token, sandbox, deviceIdentifier: device_identifier });
    return ok({
      apn_device: {
        token: device.token,
        sandbox,
        device_identifier: device.device_identifier,
        user_id: device.user_id,
        app_id: device.app_id,
        registered_at: device.registered_at,
      },
    });
  },
);

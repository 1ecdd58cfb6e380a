/**
 * Push-notification devices (I17-I18, `POST /v15/apn_devices`, `DELETE /v15/apn_devices/:token`): which
 * devices of which user, through which app, receive notifications (notifications.ts sends them).
 *
 * One item per app and device token (`keys.pushDevice`): a token registered again, by the same user or
 * another one signed in on that phone, replaces the item, so a device notifies only its latest user. A
 * user's devices are read through gsi1, oldest registration first; a user keeps at most
 * MAX_PUSH_DEVICES_PER_USER, and a registration beyond that drops the oldest (reinstalls and new phones get
 * new tokens: refusing the newest would silence the phone in the user's hand, the oldest is the likeliest
 * dead one).
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#shared/db/client.ts';
import { deleteItems } from '#shared/db/deletes.ts';
import { defineEntity, type EntityItem } from '#shared/db/entity.ts';
import { keys } from '#shared/db/keys.ts';
import { queryAll } from '#shared/db/reads.ts';
import { isoSeconds } from '#shared/time.ts';
import { invalidApiKey, unprocessable } from '#shared/errors.ts';
import { appIdForApiKey } from '#shared/domain/identity/apps.ts';
import type { PushPlatform } from '#shared/push/sender.ts';

/** Devices one user keeps (phones, tablets, reinstalls); the oldest go first. */
export const MAX_PUSH_DEVICES_PER_USER = 10;

export interface PushDeviceAttributes {
  app_id: number;
  /** The APNs device token, upper-case hex. */
  token: string;
  user_id: number;
  /** APNs, or its development environment when the device registered with `sandbox: true`. */
  platform: PushPlatform;
  device_identifier: string | null;
  registered_at: string;
}

/** A device (keys.pushDevice), indexed under its user by registration instant (keys.userPushDevicesIndex, gsi1). */
const PushDevice = defineEntity<PushDeviceAttributes & { gsi1pk: string; gsi1sk: string }>()({ entity: 'PushDevice', key: keys.pushDevice });
export type PushDeviceItem = EntityItem<typeof PushDevice>;

export interface DeviceRegistration {
  appId: number;
  userId: number;
  token: string;
  sandbox: boolean;
  deviceIdentifier: string | null;
}

/** Stores (or moves to this user) the device, then drops the user's oldest beyond the cap. */
export async function registerDevice(registration: DeviceRegistration, now = new Date()): Promise<PushDeviceAttributes> {
  const registeredAt = isoSeconds(now);
  const device: PushDeviceAttributes = {
    app_id: registration.appId,
    token: registration.token,
    user_id: registration.userId,
    platform: registration.sandbox ? 'apns_sandbox' : 'apns',
    device_identifier: registration.deviceIdentifier,
    registered_at: registeredAt,
  };
  // The put and the read of the user's other devices in one wait: the device itself is counted apart, so
  // whether the index already shows it does not matter.
  const [, devices] = await Promise.all([
    db().send(
      new PutCommand(
        PushDevice.at(device.app_id, device.token).put({
          // The index orders by the instant to the millisecond: registrations within a second still evict oldest first.
          ...keys.userPushDevicesIndex(device.user_id, now.toISOString(), device.app_id, device.token),
          ...device,
        }).Put,
      ),
    ),
    userDevices(device.user_id),
  ]);
  const others = devices.filter((other) => other.app_id !== device.app_id || other.token !== device.token);
  const excess = others.length + 1 - MAX_PUSH_DEVICES_PER_USER;
  if (excess > 0) await deleteItems(others.slice(0, excess).map((other) => keys.pushDevice(other.app_id, other.token)));
  return device;
}

/** Forgets the device (whoever it belonged to); nothing to forget is not an error (the SDK may repeat it). */
export async function unregisterDevice(appId: number, token: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: keys.pushDevice(appId, token) }));
}

/** A user's devices, oldest registration first (gsi1: eventually consistent, enough for a notification). */
export async function userDevices(userId: number): Promise<PushDeviceItem[]> {
  const { gsi1pk, skPrefix } = keys.userPushDevices(userId);
  const items = await queryAll({
    TableName: table(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': skPrefix },
  });
  return items.flatMap((item) => (item.entity === PushDevice.entity ? (PushDevice.from(item) ?? []) : []));
}

/**
 * The app a device call names: its `api_key` (iOS sends it on both calls), which must be the user token's
 * app when a token came too; without a key, the token's app. 422 `apn_device / api_key` otherwise.
 */
export async function deviceApp(apiKey: string | undefined, user: { appId: number } | undefined): Promise<number> {
  const keyAppId = apiKey ? await appIdForApiKey(apiKey) : undefined;
  if (apiKey && (keyAppId === undefined || (user && user.appId !== keyAppId))) throw invalidApiKey('apn_device');
  const appId = keyAppId ?? user?.appId;
  if (appId === undefined) throw unprocessable('apn_device', 'api_key', "Api key can't be blank", 'missing');
  return appId;
}

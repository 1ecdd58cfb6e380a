/** What the APNs device operations answer (the requests: shared/schemas/devices.ts). */
import * as z from '#shared/schemas/zod.ts';
import { timestamp } from './common.ts';
import { resource } from './registry.ts';

export const apnDeviceResponse = resource('ApnDevice', 'apn_device', {
  token: z.string(),
  sandbox: z.boolean(),
  device_identifier: z.nullable(z.string()),
  user_id: z.number().check(z.int(), z.describe("The user it notifies (the token's)")),
  app_id: z.number().check(z.int()),
  registered_at: timestamp,
});

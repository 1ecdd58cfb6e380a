import * as z from '#shared/schemas/zod.ts';

/**
 * An APNs device token as iOS sends it: hex (upper-case from the SDK; any case accepted and stored upper-case),
 * a whole number of bytes. Today's tokens are 32 bytes; Apple says they may grow, so up to 100. The SDK's own
 * examples use 4-byte tokens (`A60F7DB9`), so that is the least: SNS refuses a token APNs would not take, and the
 * sender then drops the device (shared/domain/notifications/notifications.ts).
 */
export const APN_TOKEN_PATTERN = /^(?:[0-9A-Fa-f]{2}){4,100}$/;
export const apnToken = z.pipe(
  z.string().check(z.regex(APN_TOKEN_PATTERN, 'must be the APNs device token in hex')),
  z.transform((token) => token.toUpperCase()),
);

/** I17: `POST /v15/apn_devices` as iOS sends it (`api_key` at the top level, the user token in the header). */
export const apnDeviceRequest = z.object({
  api_key: z
    .optional(z.string().check(z.minLength(1), z.maxLength(256)))
    .check(z.describe("The app's API key: the device receives that app's notifications (iOS always sends it; without it, the user token's app)")),
  apn_device: z.object({
    token: apnToken.check(z.describe('The APNs device token, hex')),
    sandbox: z
      .pipe(
        z.nullish(z.boolean()),
        z.transform((value) => value ?? false),
      )
      .check(z.describe("true for Apple's development APNs environment")),
    device_identifier: z
      .pipe(
        z.nullish(z.string().check(z.maxLength(255))),
        z.transform((value) => value ?? null),
      )
      .check(z.describe("The SDK's device identifier (kept, not used)")),
  }),
});
export type ApnDeviceRequest = z.output<typeof apnDeviceRequest>;

/** I18: `DELETE /v15/apn_devices/:token?api_key=` (iOS puts DELETE parameters in the URL). */
export const apnDeviceDeleteQuery = z.object({
  api_key: z.optional(z.string().check(z.minLength(1), z.maxLength(256))).check(z.describe("The app's API key (or the user token's app when absent)")),
});

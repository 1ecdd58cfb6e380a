import { loadedOnFirstUse } from '#shared/env.ts';

/**
 * The push sender port: hands one notification to one device's push service. Two implementations, chosen
 * by `PUSH_SENDER`:
 * - `sns`: Amazon SNS mobile push (sns.ts): what the CDK stack configures, with one platform application per
 *   APNs environment (docs/operations.md, "Push notifications");
 * - `sandbox`, or unset: records what would have been pushed (sandbox.ts) for `npm start` and the tests.
 *
 * Each adapter is imported only when chosen; deployed bundles define PUSH_SENDER as `sns`, so the sandbox is
 * dropped from them (as the geocoder's).
 */
export type PushPlatform = 'apns' | 'apns_sandbox';

export interface PushTarget {
  platform: PushPlatform;
  /** The device token, upper-case hex. */
  token: string;
  appId: number;
  userId: number;
}

export interface PushMessage {
  /** What the notification is about and which change made it (`order_ahead.ready:<uuid>`): one id, one push. */
  notificationId: string;
  kind: string;
  title: string;
  body: string;
  /** Custom keys beside `aps`, for the app to open the right screen (ids only, never personal data). */
  data: Record<string, string | number>;
}

/** `unreachable`: the push service says this token will never be delivered to again (the device is dropped). */
export type PushOutcome = 'sent' | 'unreachable';

export interface PushSender {
  send(target: PushTarget, message: PushMessage): Promise<PushOutcome>;
}

export const pushSender: () => Promise<PushSender> = loadedOnFirstUse(async () => {
  if (process.env.PUSH_SENDER === 'sns') {
    const { SnsPushSender } = await import('#shared/push/sns.ts');
    return new SnsPushSender();
  } else {
    const { SandboxPushSender } = await import('#shared/push/sandbox.ts');
    return new SandboxPushSender();
  }
});

/** The APNs payload (`aps` and the custom keys), the same for SNS and the sandbox. */
export function apnsPayload(message: PushMessage): Record<string, unknown> {
  return { aps: { alert: { title: message.title, body: message.body }, sound: 'default' }, kind: message.kind, ...message.data };
}

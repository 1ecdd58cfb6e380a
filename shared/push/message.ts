/** What the push sender port sends, to whom, and what it answers (sender.ts chooses the adapter). */
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

/** The APNs payload (`aps` and the custom keys), the same for SNS and the sandbox. */
export function apnsPayload(message: PushMessage): Record<string, unknown> {
  return { aps: { alert: { title: message.title, body: message.body }, sound: 'default' }, kind: message.kind, ...message.data };
}

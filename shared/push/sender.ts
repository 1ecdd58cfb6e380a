import { loadedOnFirstUse } from '#shared/env.ts';
import type { PushSender } from '#shared/push/message.ts';

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
// The message, its target and the port's interface live in message.ts, which the adapters import (this module
// imports the adapters); re-exported for the callers of the port.
export type { PushMessage, PushOutcome, PushPlatform, PushSender, PushTarget } from '#shared/push/message.ts';

export const pushSender: () => Promise<PushSender> = loadedOnFirstUse(async () => {
  if (process.env.PUSH_SENDER === 'sns') {
    const { SnsPushSender } = await import('#shared/push/sns.ts');
    return new SnsPushSender();
  } else {
    const { SandboxPushSender } = await import('#shared/push/sandbox.ts');
    return new SandboxPushSender();
  }
});

import { appendFileSync } from 'node:fs';
import { optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { apnsPayload, type PushMessage, type PushOutcome, type PushSender, type PushTarget } from '#shared/push/message.ts';

/** Device tokens starting with this are gone for the sandbox (as APNs says of an uninstalled app): the device is dropped. */
export const SANDBOX_UNREACHABLE_TOKEN_PREFIX = 'DEAD';

/** One line of the sandbox's record: what SNS would have been asked to deliver, to whom. */
export interface SandboxPush {
  notification_id: string;
  kind: string;
  platform: PushTarget['platform'];
  token: string;
  app_id: number;
  user_id: number;
  title: string;
  body: string;
  payload: Record<string, unknown>;
  pushed_at: string;
}

/**
 * The local push sink, in the style of the card gateway's sandbox: nothing leaves the machine. Each push is
 * appended as one JSON line to PUSH_SANDBOX_FILE (`npm start`: `.local/push-notifications.jsonl`; the tests
 * read their own file) and logged (`push_sandbox`, without the text). Unset, pushes are only logged.
 */
export class SandboxPushSender implements PushSender {
  async send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    if (target.token.startsWith(SANDBOX_UNREACHABLE_TOKEN_PREFIX)) return 'unreachable';
    const record: SandboxPush = {
      notification_id: message.notificationId,
      kind: message.kind,
      platform: target.platform,
      token: target.token,
      app_id: target.appId,
      user_id: target.userId,
      title: message.title,
      body: message.body,
      payload: apnsPayload(message),
      pushed_at: new Date().toISOString(),
    };
    const file = optionalEnv('PUSH_SANDBOX_FILE');
    if (file) appendFileSync(file, `${JSON.stringify(record)}\n`);
    log('info', 'push_sandbox', { notification_id: message.notificationId, kind: message.kind, platform: target.platform, user_id: target.userId });
    return 'sent';
  }
}

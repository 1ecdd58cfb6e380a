import { awsClientConfig, loadedOnFirstUse, optionalEnv } from '#shared/env.ts';
import { log } from '#shared/log.ts';
import { apnsPayload, type PushMessage, type PushOutcome, type PushPlatform, type PushSender, type PushTarget } from '#shared/push/message.ts';

/** The platform application of each APNs environment (infra/constructs/push-notifications.ts sets them). */
const PLATFORM_APPLICATION_ENV: Record<PushPlatform, string> = {
  apns: 'PUSH_APNS_PLATFORM_APPLICATION_ARN',
  apns_sandbox: 'PUSH_APNS_SANDBOX_PLATFORM_APPLICATION_ARN',
};

/** The key of each platform's payload in an SNS `MessageStructure: json` message. */
const MESSAGE_KEY: Record<PushPlatform, string> = { apns: 'APNS', apns_sandbox: 'APNS_SANDBOX' };

/** Loaded on the first push, not at import (the stream function's batches are mostly events and mail). */
const snsClient = loadedOnFirstUse(() => import('@aws-sdk/client-sns').then((sns) => ({ client: new sns.SNSClient(awsClientConfig('SNS_ENDPOINT')), sns })));

const errorName = (error: unknown) => (error as { name?: string }).name ?? '';

/**
 * Amazon SNS mobile push. A device's platform endpoint is made when it is first pushed to
 * (CreatePlatformEndpoint answers the existing endpoint of a token, so nothing is stored), then the message is
 * published to it. An endpoint SNS disabled (APNs said the token is no longer valid, or an earlier
 * registration of the token) is enabled once and tried again: the user registered the token again since; if
 * it is refused again, or SNS refuses the token itself, the device is unreachable and its endpoint deleted.
 * Anything else throws, and the stream batch is retried.
 */
export class SnsPushSender implements PushSender {
  async send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
    const platformApplication = optionalEnv(PLATFORM_APPLICATION_ENV[target.platform]);
    if (!platformApplication) {
      // Not configured for this environment (docs/operations.md): nothing to send through, nothing to retry.
      log('warn', 'push_platform_not_configured', { platform: target.platform, notification_id: message.notificationId });
      return 'sent';
    }
    const { client, sns } = await snsClient();
    let endpointArn: string | undefined;
    try {
      endpointArn = (await client.send(new sns.CreatePlatformEndpointCommand({ PlatformApplicationArn: platformApplication, Token: target.token })))
        .EndpointArn;
    } catch (error) {
      if (errorName(error) !== 'InvalidParameterException') throw error;
      // The token's endpoint exists with other attributes (SNS names it in the message): use it. Otherwise
      // SNS refused the token itself: no push can reach it.
      endpointArn = /Endpoint (arn:[^ ]+) already exists/.exec((error as Error).message ?? '')?.[1];
      if (!endpointArn) return 'unreachable';
    }
    if (!endpointArn) throw new Error('SNS answered CreatePlatformEndpoint without an endpoint');
    const publish = () =>
      client.send(
        new sns.PublishCommand({
          TargetArn: endpointArn,
          MessageStructure: 'json',
          Message: JSON.stringify({ default: message.body, [MESSAGE_KEY[target.platform]]: JSON.stringify(apnsPayload(message)) }),
        }),
      );
    try {
      await publish();
      return 'sent';
    } catch (error) {
      if (errorName(error) !== 'EndpointDisabledException') throw error;
    }
    await client.send(new sns.SetEndpointAttributesCommand({ EndpointArn: endpointArn, Attributes: { Enabled: 'true' } }));
    try {
      await publish();
      return 'sent';
    } catch (error) {
      if (errorName(error) !== 'EndpointDisabledException') throw error;
      await client.send(new sns.DeleteEndpointCommand({ EndpointArn: endpointArn }));
      return 'unreachable';
    }
  }
}

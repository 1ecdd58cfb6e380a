import { Arn, ArnFormat, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { keys, PUSH_DEVICE_PREFIX, PUSH_SENT_PREFIX } from '#shared/db/keys.ts';
import { GIFT_CARD_RECEIPTS } from '#shared/domain/notifications/notifications.ts';
import type { ApiFunction } from './api-function.ts';

export interface PushNotificationsProps {
  table: ITable;
  /** The one function that sends pushes: the table's stream function (functions/events-stream.ts). */
  sender: ApiFunction;
  /** The SNS platform application (APNS) for production iOS devices. @default none: those pushes are skipped, logged */
  apnsPlatformApplicationArn?: string;
  /** The SNS platform application (APNS_SANDBOX) for devices registered with `sandbox: true` (development builds). */
  apnsSandboxPlatformApplicationArn?: string;
}

/**
 * The stream records push notifications follow (shared/domain/notifications/notifications.ts), as event source mapping
 * filter patterns beside the event and mail ones (infra/constructs/webhook-delivery.ts).
 */
export const PUSH_STREAM_FILTERS = [
  // An order-ahead order written completed (the provider took it) or rejected.
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { sk: { S: ['OAORDER'] } }, NewImage: { state: { S: ['completed', 'rejected'] } } } },
  // A reward earned by progress (claimed ones are the user's own doing).
  { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['Reward'] }, source: { S: ['earned'] } } } },
  // Gift card value put on a user's gift card account, loaded or a held gift claimed (the handler leaves out the till's).
  {
    eventName: ['INSERT'],
    dynamodb: { Keys: { pk: { S: [{ prefix: keys.ledgerEntryPrefix('giftcard:').pk }] } }, NewImage: { kind: { S: [...GIFT_CARD_RECEIPTS] } } },
  },
];

/** The table partitions of sent-notification markers and devices (shared/db/keys.ts pushSent, pushDevice). */
export const PUSH_SENT_PARTITIONS = `${PUSH_SENT_PREFIX}*`;
export const PUSH_DEVICE_PARTITIONS = `${PUSH_DEVICE_PREFIX}*`;

/**
 * Push notifications through Amazon SNS mobile push (shared/push/sns.ts; docs/operations.md, "Push
 * notifications"). The platform applications hold the APNs credentials and are made once per account by an
 * operator (a signing key or certificate is a secret no template should carry); the stack takes their ARNs
 * (context `pushApnsPlatformApplicationArn`, `pushApnsSandboxPlatformApplicationArn`). Only the stream function
 * may push: CreatePlatformEndpoint on those applications, Publish, SetEndpointAttributes and DeleteEndpoint on
 * their endpoints, and in the table PutItem (conditional) on the sent markers and DeleteItem on markers and devices
 * (dropping a device the push service calls unreachable). No route function can reach SNS.
 */
export class PushNotifications extends Construct {
  public constructor(scope: Construct, id: string, props: PushNotificationsProps) {
    super(scope, id);
    const fn = props.sender;
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PUSH_SENT_PARTITIONS] } },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:DeleteItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PUSH_DEVICE_PARTITIONS] } },
      }),
    );
    const applications = [
      ['PUSH_APNS_PLATFORM_APPLICATION_ARN', props.apnsPlatformApplicationArn],
      ['PUSH_APNS_SANDBOX_PLATFORM_APPLICATION_ARN', props.apnsSandboxPlatformApplicationArn],
    ] as const;
    for (const [variable, arn] of applications) {
      if (!arn) continue;
      const endpoints = platformEndpointsArn(arn);
      fn.addEnvironment(variable, arn);
      fn.addToRolePolicy(new PolicyStatement({ actions: ['sns:CreatePlatformEndpoint'], resources: [arn] }));
      fn.addToRolePolicy(new PolicyStatement({ actions: ['sns:Publish', 'sns:SetEndpointAttributes', 'sns:DeleteEndpoint'], resources: [endpoints] }));
      Validations.of(fn.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${endpoints}]`,
        reason: "The endpoints of this platform application only: SNS names a device's endpoint by a random id under its application.",
      });
    }
  }
}

/** `arn:aws:sns:<region>:<account>:app/APNS/<name>` -> `arn:aws:sns:<region>:<account>:endpoint/APNS/<name>/*`. */
export function platformEndpointsArn(applicationArn: string): string {
  const parts = Arn.split(applicationArn, ArnFormat.SLASH_RESOURCE_NAME);
  if (parts.service !== 'sns' || parts.resource !== 'app' || !/^APNS(_SANDBOX)?\/[^/]+$/.test(parts.resourceName ?? '')) {
    throw new Error(`${applicationArn} is not the ARN of an SNS platform application for APNS or APNS_SANDBOX`);
  }
  return Arn.format({ ...parts, resource: 'endpoint', resourceName: `${parts.resourceName}/*` });
}

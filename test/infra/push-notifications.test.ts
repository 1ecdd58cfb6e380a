/**
 * Push notifications in the template (infra/constructs/push-notifications.ts; docs/operations.md "Push
 * notifications"): only the stream function may reach SNS, only the configured platform applications and their
 * endpoints, with the table writes it needs on its own partitions; cdk-nag finds nothing unacknowledged; with
 * nothing configured the function gets no SNS permission at all.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ApiFunction } from '../../infra/constructs/api-function.ts';
import { platformEndpointsArn, PUSH_DEVICE_PARTITIONS, PUSH_SENT_PARTITIONS, PushNotifications } from '../../infra/constructs/push-notifications.ts';
import { EVENTS_STREAM_HANDLER } from '../../infra/constructs/webhook-delivery.ts';

const APNS = 'arn:aws:sns:us-east-1:123456789012:app/APNS/loyalty-ios';
const APNS_SANDBOX = 'arn:aws:sns:us-east-1:123456789012:app/APNS_SANDBOX/loyalty-ios-dev';

function build(push: { apnsPlatformApplicationArn?: string; apnsSandboxPlatformApplicationArn?: string }) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'PushUnderTest');
  const table = new Table(stack, 'Data', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  });
  const sender = new ApiFunction(stack, 'StreamFunction', { handlerName: EVENTS_STREAM_HANDLER, handler: 'streamHandler' });
  const bystander = new ApiFunction(stack, 'Bystander', { handlerName: 'apn-devices-create' });
  new PushNotifications(stack, 'Push', { table, sender, ...push });
  const template = Template.fromStack(stack).toJSON();
  const statementsOf = (fn: ApiFunction) => {
    const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
    return Object.values(template.Resources as Record<string, { Type: string; Properties: Record<string, any> }>)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
  };
  const variables = (fn: ApiFunction) =>
    (Object.values(template.Resources as Record<string, { Type: string; Properties: Record<string, any> }>).find(
      (resource) => resource.Type === 'AWS::Lambda::Function' && JSON.stringify(resource).includes(stack.getLogicalId(fn.role!.node.defaultChild as never)),
    )!.Properties.Environment?.Variables ?? {}) as Record<string, string>;
  return { stack, sender, bystander, statementsOf, variables };
}

describe('push notifications in the template', () => {
  it('lets the stream function alone create endpoints on the configured applications and publish to their endpoints only', () => {
    const { sender, bystander, statementsOf, variables } = build({ apnsPlatformApplicationArn: APNS, apnsSandboxPlatformApplicationArn: APNS_SANDBOX });
    const sns = statementsOf(sender).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('sns:')));
    expect(sns.map((statement) => [[statement.Action].flat().sort(), statement.Resource])).toEqual([
      [['sns:CreatePlatformEndpoint'], APNS],
      [['sns:DeleteEndpoint', 'sns:Publish', 'sns:SetEndpointAttributes'], 'arn:aws:sns:us-east-1:123456789012:endpoint/APNS/loyalty-ios/*'],
      [['sns:CreatePlatformEndpoint'], APNS_SANDBOX],
      [['sns:DeleteEndpoint', 'sns:Publish', 'sns:SetEndpointAttributes'], 'arn:aws:sns:us-east-1:123456789012:endpoint/APNS_SANDBOX/loyalty-ios-dev/*'],
    ]);
    expect(variables(sender)).toMatchObject({ PUSH_APNS_PLATFORM_APPLICATION_ARN: APNS, PUSH_APNS_SANDBOX_PLATFORM_APPLICATION_ARN: APNS_SANDBOX });
    // Table writes only on its markers (claim, release) and on devices (drop an unreachable one).
    const writes = statementsOf(sender).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
    expect(writes.map((statement) => [[statement.Action].flat().sort(), statement.Condition])).toEqual([
      [['dynamodb:DeleteItem', 'dynamodb:PutItem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PUSH_SENT_PARTITIONS] } }],
      [['dynamodb:DeleteItem'], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PUSH_DEVICE_PARTITIONS] } }],
    ]);
    expect(
      statementsOf(bystander)
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('sns:')),
    ).toEqual([]);
  });

  it('gives no SNS permission and no platform application when none is configured (pushes are then skipped and logged)', () => {
    const { sender, statementsOf, variables } = build({});
    expect(
      statementsOf(sender)
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('sns:')),
    ).toEqual([]);
    expect(Object.keys(variables(sender)).filter((name) => name.startsWith('PUSH_'))).toEqual([]);
  });

  it('cdk-nag finds nothing unacknowledged in its grants', () => {
    const { stack } = build({ apnsPlatformApplicationArn: APNS, apnsSandboxPlatformApplicationArn: APNS_SANDBOX });
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const report = pack.validateScope(stack);
      const findings = report.violations.flatMap((violation) =>
        violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.resourceLogicalId}`),
      );
      expect(findings, `${pack.readPackName} findings`).toEqual([]);
    }
  });

  it('refuses an ARN that is not an APNs platform application', () => {
    expect(platformEndpointsArn(APNS)).toBe('arn:aws:sns:us-east-1:123456789012:endpoint/APNS/loyalty-ios/*');
    for (const wrong of [
      'arn:aws:sns:us-east-1:123456789012:my-topic',
      'arn:aws:sns:us-east-1:123456789012:app/GCM/android',
      'arn:aws:sqs:us-east-1:123456789012:app/APNS/x',
    ]) {
      expect(() => platformEndpointsArn(wrong), wrong).toThrow();
    }
  });
});

/**
 * The webhook delivery path in the template (docs/events.md): the table's stream, the FIFO queue with its
 * dead-letter queue, the filtered stream mapping, least-privilege grants and the alarms.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import { MAX_RECEIVES } from '../../infra/constructs/webhook-delivery.ts';
import { PUSH_STREAM_FILTERS } from '../../infra/constructs/push-notifications.ts';
import { DELIVERY_QUEUE_URL_ENV } from '#shared/queues/deliveries.ts';
import { MAIL_PREFIX, PASSWORD_RESET_PREFIX, REPORT_COUNTED_PREFIX, REPORTS_PREFIX } from '#shared/db/keys.ts';
import { REPORTED_ENTITIES } from '#shared/domain/reports/aggregates.ts';
import { routes } from '#shared/routes.ts';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates } from '../support/templates.ts';

type Resource = { Type: string; Properties: Record<string, any> };
let stack: LoyaltyApiStack;
let resources: Record<string, Resource>;
let logicalIdOf: (construct: any) => string;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new LoyaltyApiStack(app, 'Events');
  app.synth();
  const synthesized = synthesizedTemplates(stack);
  resources = synthesized.resources as Record<string, Resource>;
  logicalIdOf = synthesized.logicalIdOf as (construct: any) => string;
}, SYNTH_TIMEOUT_MS);

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const policyStatementsOf = (fnConstruct: any) => {
  const roleId = resources[logicalIdOf(fnConstruct)]!.Properties.Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
};
const actionsOf = (fnConstruct: any) => policyStatementsOf(fnConstruct).flatMap((statement) => [statement.Action].flat());

describe('webhook delivery', () => {
  it('turns the table stream on with new images', () => {
    const [, table] = ofType('AWS::DynamoDB::Table')[0]!;
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
  });

  it('queues deliveries in a FIFO queue, encrypted, redriving to a FIFO dead-letter queue', () => {
    const queues = ofType('AWS::SQS::Queue');
    const delivery = queues.find(([, queue]) => queue.Properties.RedrivePolicy)!;
    expect(delivery[1].Properties).toMatchObject({
      FifoQueue: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { maxReceiveCount: MAX_RECEIVES },
    });
    const deadLetters = resources[delivery[1].Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]]!;
    expect(deadLetters.Properties.FifoQueue).toBe(true);
  });

  it('reads only inserted event and mail items and the items the reports count from the stream, with retries and a failure destination', () => {
    const streamMapping = ofType('AWS::Lambda::EventSourceMapping').find(([, mapping]) => mapping.Properties.StartingPosition)!;
    expect(streamMapping[1].Properties).toMatchObject({ StartingPosition: 'TRIM_HORIZON', BisectBatchOnFunctionError: true, MaximumRetryAttempts: 20 });
    expect(streamMapping[1].Properties.DestinationConfig.OnFailure.Destination).toBeDefined();
    const patterns = streamMapping[1].Properties.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern));
    expect(patterns).toEqual([
      { eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: ['EVENT', 'MAIL'] } } } },
      // What the reports count (shared/domain/reports/aggregates.ts).
      { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [...REPORTED_ENTITIES] } } } },
      // What push notifications follow (test/infra/push-notifications.test.ts); Lambda allows five filters by default.
      ...PUSH_STREAM_FILTERS,
    ]);
    expect(patterns).toHaveLength(5);
    const sqsMapping = ofType('AWS::Lambda::EventSourceMapping').find(([, mapping]) => !mapping.Properties.StartingPosition)!;
    expect(sqsMapping[1].Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('grants each function only what it uses', () => {
    const { streamFunction, deliveryFunction } = stack.webhookDelivery;
    expect(actionsOf(streamFunction)).toContain('sqs:SendMessage');
    expect(actionsOf(streamFunction)).not.toContain('sqs:ChangeMessageVisibility');
    // It composes password-reset mails, storing each link's secret digest: PutItem on those partitions only,
    // besides its push markers' partitions (test/infra/push-notifications.test.ts).
    const isReports = (statement: unknown) => JSON.stringify(statement).includes(REPORTS_PREFIX);
    const puts = policyStatementsOf(streamFunction).filter(
      (statement) => [statement.Action].flat().includes('dynamodb:PutItem') && !JSON.stringify(statement).includes('PUSHSENT#') && !isReports(statement),
    );
    expect(puts).toHaveLength(1);
    expect([puts[0]!.Action].flat()).toEqual(['dynamodb:PutItem']);
    expect((puts[0] as { Condition?: unknown }).Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${PASSWORD_RESET_PREFIX}*`] } });
    // It marks mail items sent: UpdateItem on the mail outbox's partitions only.
    const updates = policyStatementsOf(streamFunction).filter(
      (statement) => [statement.Action].flat().includes('dynamodb:UpdateItem') && !isReports(statement),
    );
    // It counts the reports: a marker put and the report rows' updates, on those partitions only.
    const reports = policyStatementsOf(streamFunction).filter(isReports);
    expect(reports).toHaveLength(1);
    expect([reports[0]!.Action].flat()).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    expect((reports[0] as { Condition?: unknown }).Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${REPORTS_PREFIX}*`, `${REPORT_COUNTED_PREFIX}*`] },
    });
    expect(updates).toHaveLength(1);
    expect([updates[0]!.Action].flat()).toEqual(['dynamodb:UpdateItem']);
    expect((updates[0] as { Condition?: unknown }).Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${MAIL_PREFIX}*`] } });
    expect(actionsOf(deliveryFunction)).toEqual(expect.arrayContaining(['sqs:ChangeMessageVisibility', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actionsOf(deliveryFunction)).not.toContain('sqs:SendMessage');
    for (const action of [...actionsOf(streamFunction), ...actionsOf(deliveryFunction)]) expect(action).not.toMatch(/\*/);
  });

  it('gives the queue only to the routes that replay', () => {
    const queueing = routes.filter((route) => route.queuesDeliveries).map((route) => route.handler);
    expect(queueing).toEqual(['webhook-endpoint-replays-create']);
    for (const [handler, fn] of stack.functions) {
      const environment = resources[logicalIdOf(fn)]?.Properties.Environment?.Variables ?? {};
      expect(DELIVERY_QUEUE_URL_ENV in environment, handler).toBe(queueing.includes(handler));
    }
  });

  it('alarms on given-up deliveries and on both dead-letter queues', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    expect(
      alarms.some(
        (alarm) =>
          alarm.MetricName === 'WebhookDeliveries' &&
          alarm.Dimensions?.some((dimension: { Name: string; Value: string }) => dimension.Name === 'outcome' && dimension.Value === 'failed'),
      ),
    ).toBe(true);
    // The delivery queue's dead letters and the stream's failure destination; other queues (image processing) have alarms of their own.
    const deliveryQueue = ofType('AWS::SQS::Queue').find(([, queue]) => queue.Properties.RedrivePolicy)![1];
    const streamMapping = ofType('AWS::Lambda::EventSourceMapping').find(([, mapping]) => mapping.Properties.StartingPosition)![1];
    const webhookDeadLetters = [
      deliveryQueue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0],
      streamMapping.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0],
    ];
    const depthAlarmQueues = alarms
      .filter((alarm) => alarm.MetricName === 'ApproximateNumberOfMessagesVisible')
      .map((alarm) => alarm.Dimensions.find((dimension: { Name: string }) => dimension.Name === 'QueueName').Value['Fn::GetAtt'][0] as string);
    expect(depthAlarmQueues.filter((queue) => webhookDeadLetters.includes(queue)).sort()).toEqual([...webhookDeadLetters].sort());
  });
});

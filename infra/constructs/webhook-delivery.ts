import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, GraphWidget, Metric, TreatMissingData, type Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { MAIL_PREFIX, PASSWORD_RESET_PREFIX, REPORT_COUNTED_PREFIX, REPORTS_PREFIX } from '#shared/db/keys.ts';
import { REPORTED_ENTITIES } from '#shared/domain/reports/aggregates.ts';
import { BUSINESS_METRICS, METRICS_NAMESPACE, METRICS_SERVICE } from '#shared/metrics.ts';
import { DELIVERY_QUEUE_URL_ENV, MAX_DELAY_SECONDS } from '#shared/queues/deliveries.ts';
import { ApiFunction } from './api-function.ts';
import { PUSH_STREAM_FILTERS } from './push-notifications.ts';

/** The stream function's and the delivery function's modules under functions/ and their exports (no HTTP routes). */
export const EVENTS_STREAM_HANDLER = 'events-stream';
export const WEBHOOK_DELIVERY_HANDLER = 'webhook-deliveries';
/** Receives of one message before SQS moves it to the dead-letter queue: far beyond the ~20 attempts of 7 days. */
export const MAX_RECEIVES = 40;
/** The partitions of the mail outbox's items (keys.mail), the only items the stream function may update. */
const MAIL_PARTITIONS = `${MAIL_PREFIX}*`;
/** The partitions of password-reset secrets (keys.passwordReset): composing a reset mail stores its secret's digest there. */
const PASSWORD_RESET_PARTITIONS = `${PASSWORD_RESET_PREFIX}*`;
/** Ten attempts of 10 s each, plus reads: a batch's worst case. */
const DELIVERY_TIMEOUT = Duration.seconds(120);

export interface WebhookDeliveryProps {
  /** The table, with its stream on (infra/constructs/table.ts). */
  table: Table;
  /** Functions that queue deliveries themselves (replays: the routes marked `queuesDeliveries`). */
  queueingFunctions: readonly NodejsFunction[];
}

/**
 * Events to webhooks (docs/events.md), in one construct so it can live in any stack: the table's stream ->
 * `events-stream` (filtered to inserted event items, and inserted mail items, which it sends) -> an SQS FIFO queue grouped by endpoint and resource ->
 * `webhook-deliveries`, which attempts, and keeps a delivery to retry at the head of its group with
 * ChangeMessageVisibility. Dead-letter queues catch what our own code keeps failing on; alarms watch them
 * and the deliveries given up after 7 days. Each function gets only what it uses.
 */
export class WebhookDelivery extends Construct {
  public readonly queue: Queue;
  public readonly deadLetters: Queue;
  public readonly streamFailures: Queue;
  public readonly streamFunction: ApiFunction;
  public readonly deliveryFunction: ApiFunction;

  public constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const retention = Duration.days(14);
    this.deadLetters = new Queue(this, 'DeadLetters', { fifo: true, retentionPeriod: retention, enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED });
    this.queue = new Queue(this, 'Deliveries', {
      fifo: true,
      // Outlasts the 7 days of retries; each wait is at most SQS's 12 h visibility timeout (MAX_DELAY_SECONDS).
      retentionPeriod: retention,
      visibilityTimeout: Duration.seconds(Math.max(DELIVERY_TIMEOUT.toSeconds() * 3, 360)),
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: MAX_RECEIVES },
    });
    // Where stream batches go that fail every retry (a standard queue: the mapping's on-failure destination).
    this.streamFailures = new Queue(this, 'StreamFailures', { retentionPeriod: retention, enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED });
    for (const deadLetters of [this.deadLetters, this.streamFailures]) {
      Validations.of(deadLetters).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: 'This queue is itself a dead-letter queue (alarmed on its depth); it needs none of its own.',
      });
      Validations.of(deadLetters).acknowledge({
        id: 'Serverless-SQSRedrivePolicy',
        reason: 'This queue is itself a dead-letter queue (alarmed on its depth); nothing redrives from it.',
      });
    }

    this.streamFunction = new ApiFunction(this, 'StreamFunction', {
      handlerName: EVENTS_STREAM_HANDLER,
      handler: 'streamHandler',
      timeout: Duration.seconds(60),
    });
    this.streamFunction.bindTable({ table: props.table, accessMode: 'RO' });
    // It also sends the mail outbox (shared/domain/notifications/mail-outbox.ts): it marks mail items sent, and may update
    // nothing else (the mail partitions only). Its SES permission and MAIL_FROM come from the Mail construct.
    this.streamFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [MAIL_PARTITIONS] } },
      }),
    );
    // Composing a password-reset mail (shared/domain/identity/password-resets.ts) makes its link's secret then and stores
    // the digest: PutItem on those partitions only.
    this.streamFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [PASSWORD_RESET_PARTITIONS] } },
      }),
    );
    // It keeps the report aggregates (shared/domain/reports/aggregates.ts): each count is one transaction that creates
    // a counted marker and adds to the merchant's report rows, those partitions only.
    this.streamFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${REPORTS_PREFIX}*`, `${REPORT_COUNTED_PREFIX}*`] } },
      }),
    );
    this.streamFunction.addEnvironment(DELIVERY_QUEUE_URL_ENV, this.queue.queueUrl);
    this.queue.grantSendMessages(this.streamFunction);
    this.streamFunction.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        retryAttempts: 20,
        onFailure: new SqsDlq(this.streamFailures),
        // Inserted event items and inserted mail items (the mail outbox), the inserted items the reports count (ledger
        // entries, orders, loyalty members, rewards), and the writes push notifications follow
        // (shared/domain/notifications/notifications.ts): an order-ahead order written completed or rejected, an earned
        // reward, a gift card load. Never other updates, nor expiries. Five filters: Lambda's default quota.
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { Keys: { sk: { S: FilterRule.or('EVENT', 'MAIL') } } } }),
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.or(...REPORTED_ENTITIES) } } } }),
          ...PUSH_STREAM_FILTERS.map((pattern) => ({ pattern: JSON.stringify(pattern) })),
        ],
      }),
    );

    this.deliveryFunction = new ApiFunction(this, 'DeliveryFunction', {
      handlerName: WEBHOOK_DELIVERY_HANDLER,
      handler: 'queueHandler',
      timeout: DELIVERY_TIMEOUT,
    });
    this.deliveryFunction.bindTable({ table: props.table, accessMode: 'RW' });
    this.deliveryFunction.addEnvironment(DELIVERY_QUEUE_URL_ENV, this.queue.queueUrl);
    this.queue.grant(this.deliveryFunction, 'sqs:ChangeMessageVisibility');
    this.deliveryFunction.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));
    Validations.of(this.deliveryFunction).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason: 'An SQS source takes no on-failure destination: the queue redrives to its own dead-letter queue.',
    });

    for (const fn of props.queueingFunctions) {
      fn.addEnvironment(DELIVERY_QUEUE_URL_ENV, this.queue.queueUrl);
      this.queue.grantSendMessages(fn);
    }
    if (MAX_DELAY_SECONDS > 12 * 3600) throw new Error('a retry wait cannot exceed SQS visibility timeouts (12 h)');
  }

  /** Alarms on deliveries given up after 7 days and on anything in the dead-letter queues, to the on-call topic; a dashboard widget of attempts by outcome. */
  public alarmTo(topic: ITopic, dashboard?: Dashboard): Alarm[] {
    const given = new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: BUSINESS_METRICS.webhookDeliveries,
      dimensionsMap: { service: METRICS_SERVICE, outcome: 'failed' },
      statistic: 'Sum',
      period: Duration.minutes(5),
    });
    const alarms = [
      new Alarm(this, 'DeliveriesGivenUp', {
        alarmDescription: 'A webhook delivery failed for 7 days and was given up (GET /v15/webhook_endpoints shows which): tell the tenant (docs/events.md).',
        metric: given,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      ...[this.deadLetters, this.streamFailures].map(
        (queue) =>
          new Alarm(this, `${queue.node.id}Depth`, {
            alarmDescription: `Messages in ${queue.node.id}: events the delivery path could not handle (docs/operations.md).`,
            metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
            threshold: 1,
            evaluationPeriods: 1,
            comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            treatMissingData: TreatMissingData.NOT_BREACHING,
          }),
      ),
    ];
    for (const alarm of alarms) {
      alarm.addAlarmAction(new SnsAction(topic));
      alarm.addOkAction(new SnsAction(topic));
    }
    const byOutcome = (outcome: string) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: BUSINESS_METRICS.webhookDeliveries,
        dimensionsMap: { service: METRICS_SERVICE, outcome },
        statistic: 'Sum',
        label: outcome,
      });
    dashboard?.addWidgets(
      new GraphWidget({
        title: 'Webhook deliveries by outcome',
        width: 12,
        left: [byOutcome('delivered'), byOutcome('retried')],
        right: [byOutcome('failed')],
      }),
    );
    return alarms;
  }
}

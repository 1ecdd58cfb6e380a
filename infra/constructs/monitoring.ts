import { Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  SingleValueWidget,
  Stats,
  TextWidget,
  TreatMissingData,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { constructIdFor } from './api-function.ts';
import { BUSINESS_METRICS, METRIC_DIMENSIONS, METRICS_NAMESPACE, METRICS_SERVICE } from '#shared/metrics.ts';

/** The period every alarm evaluates. */
export const ALARM_PERIOD = Duration.minutes(5);

/** Thresholds of the alarms (docs/operations.md explains each and what to do). */
export const ALARM_THRESHOLDS = {
  /** Percent of requests answered 5xx in a period, once the period saw at least `minRequests`. */
  api5xxPercent: 1,
  api5xxMinRequests: 20,
  /** p99 of the API's end-to-end latency, ms, for `apiLatencyPeriods` periods in a row. */
  apiLatencyP99Ms: 1500,
  apiLatencyPeriods: 3,
} as const;

/** DynamoDB operations the functions use (the table's throttle and system-error alarms sum them). */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

export interface MonitoringProps {
  api: IHttpApi;
  table: ITable;
  stateMachine: IStateMachine;
  /** The order-ahead completion workflow (charges, forwards to the ordering provider, reverses rejected orders). */
  completionStateMachine?: IStateMachine;
  /** Handler name -> function: every API function and the workflows' tasks. */
  functions: ReadonlyMap<string, IFunction>;
  /** Draws the edge's WAF blocks by rule when the API sits behind the per-client limits (us-east-1 metrics). */
  webAcl?: { metricName: string; ruleMetricNames: readonly string[] };
}

/** A business metric as the EMF lines of shared/metrics.ts publish it. */
export function businessMetric(name: string, extraDimensions: Record<string, string> = {}, statistic: string = Stats.SUM): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE, ...extraDimensions },
    statistic,
    period: ALARM_PERIOD,
  });
}

/**
 * What an operator watches: an SNS topic every alarm notifies (subscribe on-call to it), the alarms
 * (docs/operations.md has the runbook of each) and one dashboard with the API, the money, the table,
 * the workflow and the functions.
 */
export class Monitoring extends Construct {
  public readonly topic: Topic;
  public readonly alarms: Alarm[] = [];
  public readonly dashboard: Dashboard;

  public constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table, stateMachine, functions } = props;

    // CloudWatch can publish to an encrypted topic only with a customer managed key it may use.
    const key = new Key(this, 'AlarmTopicKey', { enableKeyRotation: true, description: 'Encrypts the API alarm notifications topic' });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Loyalty API alarms', masterKey: key, enforceSSL: true });
    const action = new SnsAction(this.topic);

    /** `runbook`: the heading of docs/operations.md that says what the alarm means and what to do first. */
    const alarm = (
      alarmId: string,
      metric: IMetric,
      options: { threshold: number; description: string; periods?: number; runbook?: string; scope?: Construct },
    ) => {
      const created = new Alarm(options.scope ?? this, alarmId, {
        metric,
        threshold: options.threshold,
        evaluationPeriods: options.periods ?? 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${options.description} Runbook: docs/operations.md#${(options.runbook ?? alarmId).toLowerCase()}`,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const requests = api.metricCount({ period: ALARM_PERIOD, statistic: Stats.SUM });
    const serverErrors = api.metricServerError({ period: ALARM_PERIOD, statistic: Stats.SUM });
    alarm(
      'Api5xxRate',
      new MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: ALARM_PERIOD,
        label: '5xx %',
      }),
      { threshold: ALARM_THRESHOLDS.api5xxPercent, description: `More than ${ALARM_THRESHOLDS.api5xxPercent}% of API requests answered 5xx.` },
    );
    alarm('ApiLatencyP99', api.metricLatency({ period: ALARM_PERIOD, statistic: Stats.p(99) }), {
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      periods: ALARM_THRESHOLDS.apiLatencyPeriods,
      description: `API p99 latency at or above ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms for ${ALARM_THRESHOLDS.apiLatencyPeriods * 5} minutes.`,
    });
    for (const [handler, fn] of functions) {
      // A function's alarm lives beside it: in its route's nested stack, so the parent's size does not grow with routes.
      const beside = Stack.of(fn) === Stack.of(this) ? undefined : fn.node.scope;
      alarm(`LambdaErrors${constructIdFor(handler)}`, fn.metricErrors({ period: ALARM_PERIOD, statistic: Stats.SUM }), {
        scope: beside,
        threshold: 1,
        description: `Function ${handler} failed (unhandled error, timeout or crash; the pipeline answers handled errors itself).`,
        runbook: 'LambdaErrors',
      });
    }
    // Throttles come from the account's concurrency, which every function shares: one alarm on Lambda's aggregate.
    alarm('LambdaThrottles', new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: Stats.SUM, period: ALARM_PERIOD }), {
      threshold: 1,
      description: 'Lambda throttled invocations in this account and region (concurrency exhausted).',
    });
    alarm('TableThrottles', table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }), {
      threshold: 1,
      description: 'DynamoDB throttled requests on the table.',
    });
    alarm('TableSystemErrors', table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: ALARM_PERIOD }), {
      threshold: 1,
      description: 'DynamoDB answered with system errors (HTTP 500) on the table.',
    });
    /** Every failed and every timed-out execution of a state machine is an alarm (`<prefix>Failed`, `<prefix>TimedOut`). */
    const executionAlarms = (prefix: string, machine: IStateMachine, failed: string, timedOut: string, timedOutRunbook?: string) => {
      alarm(`${prefix}Failed`, machine.metricFailed({ period: ALARM_PERIOD, statistic: Stats.SUM }), { threshold: 1, description: failed });
      alarm(`${prefix}TimedOut`, machine.metricTimedOut({ period: ALARM_PERIOD, statistic: Stats.SUM }), {
        threshold: 1,
        description: timedOut,
        ...(timedOutRunbook === undefined ? {} : { runbook: timedOutRunbook }),
      });
    };
    executionAlarms(
      'Workflow',
      stateMachine,
      'Order-ahead validation executions failed (the Catch should have recorded every failure).',
      'Order-ahead validation executions timed out: orders may stay externally_validating.',
    );
    if (props.completionStateMachine) {
      // Every failure ends in the Reject step; a failed or timed-out execution means even that could not run:
      // an order may be charged and neither completed nor reversed until the poll's backstop rejects it.
      executionAlarms(
        'CompletionWorkflow',
        props.completionStateMachine,
        'Order-ahead completion executions failed: the Reject step could not run after its retries.',
        'Order-ahead completion executions timed out: orders may stay submitting, charging or submitted until polled.',
        'CompletionWorkflowFailed',
      );
    }
    alarm('OrderAheadValidationFailed', businessMetric(BUSINESS_METRICS.orderAheadValidations, { outcome: 'failed' }), {
      threshold: 1,
      description: 'Order-ahead validation failed after its retries; the order was marked externally_invalid with a generic error.',
    });
    alarm('ChargeVoidFailed', businessMetric(BUSINESS_METRICS.chargeVoidFailed), {
      threshold: 1,
      description: 'A card charge that had to be voided was not: the customer may be charged for nothing. A human must reconcile it.',
    });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '# Loyalty API\nAlarms notify the SNS topic `AlarmTopic`; runbook in docs/operations.md.', width: 24, height: 2 }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 }));
    this.dashboard.addWidgets(...this.apiWidgets(api));
    this.dashboard.addWidgets(...moneyWidgets());
    this.dashboard.addWidgets(...this.workflowWidgets(stateMachine));
    if (props.completionStateMachine) {
      this.dashboard.addWidgets(
        workflowRunsWidget('Order-ahead completion workflow', props.completionStateMachine),
        dimensionWidget('Order-ahead completions by outcome', BUSINESS_METRICS.orderAheadCompletions),
      );
    }
    this.dashboard.addWidgets(...tableWidgets(table));
    this.dashboard.addWidgets(...functionWidgets(functions));
    if (props.webAcl) this.dashboard.addWidgets(edgeWidget(props.webAcl));
  }

  private apiWidgets(api: IHttpApi): IWidget[] {
    const period = Duration.minutes(1);
    return [
      new GraphWidget({
        title: 'API requests and errors',
        left: [api.metricCount({ period, statistic: Stats.SUM, label: 'requests' })],
        right: [api.metricClientError({ period, statistic: Stats.SUM, label: '4xx' }), api.metricServerError({ period, statistic: Stats.SUM, label: '5xx' })],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: [
          api.metricLatency({ period, statistic: Stats.p(50), label: 'p50' }),
          api.metricLatency({ period, statistic: Stats.p(99), label: 'p99' }),
          api.metricIntegrationLatency({ period, statistic: Stats.p(99), label: 'integration p99' }),
        ],
        width: 12,
      }),
    ];
  }

  private workflowWidgets(stateMachine: IStateMachine): IWidget[] {
    return [
      workflowRunsWidget('Order-ahead validation workflow', stateMachine),
      dimensionWidget('Order-ahead validations by outcome', BUSINESS_METRICS.orderAheadValidations),
      dimensionWidget('Login lockouts', BUSINESS_METRICS.loginLockouts),
    ];
  }
}

/** A business metric with a second dimension (METRIC_DIMENSIONS): one line per value of it. */
function dimensionWidget(title: string, name: keyof typeof METRIC_DIMENSIONS): GraphWidget {
  const dimension = METRIC_DIMENSIONS[name];
  return new GraphWidget({
    title,
    left: dimension.values.map((value: string) => businessMetric(name, { [dimension.name]: value }).with({ label: value })),
    width: 8,
  });
}

function moneyWidgets(): IWidget[] {
  const labelled = (name: string, label: string) => businessMetric(name).with({ label });
  return [
    new SingleValueWidget({
      title: 'Money moved (cents, last 3 h)',
      metrics: [
        labelled(BUSINESS_METRICS.giftCardValueAddedCents, 'gift card value added'),
        labelled(BUSINESS_METRICS.ordersCompletedCents, 'orders completed'),
        labelled(BUSINESS_METRICS.ordersRefundedCents, 'orders refunded'),
      ],
      setPeriodToTimeRange: true,
      width: 12,
    }),
    new GraphWidget({
      title: 'Orders, loads, declines and voids',
      left: [
        labelled(BUSINESS_METRICS.ordersCompleted, 'orders completed'),
        labelled(BUSINESS_METRICS.ordersRefunded, 'orders refunded'),
        labelled(BUSINESS_METRICS.giftCardLoads, 'gift card loads'),
      ],
      right: [
        labelled(BUSINESS_METRICS.chargesDeclined, 'charges declined'),
        labelled(BUSINESS_METRICS.chargeVoids, 'charge voids'),
        labelled(BUSINESS_METRICS.chargeVoidFailed, 'charge_void_failed'),
      ],
      width: 12,
    }),
  ];
}

function tableWidgets(table: ITable): IWidget[] {
  const period = Duration.minutes(5);
  return [
    new GraphWidget({
      title: 'Table capacity consumed',
      left: [
        table.metricConsumedReadCapacityUnits({ period, statistic: Stats.SUM, label: 'read units' }),
        table.metricConsumedWriteCapacityUnits({ period, statistic: Stats.SUM, label: 'write units' }),
      ],
      width: 6,
    }),
    // One expression per graph: both sum the same per-operation metrics, whose ids would clash.
    new GraphWidget({
      title: 'Table throttled requests',
      left: [table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period, label: 'throttled' })],
      width: 6,
    }),
    new GraphWidget({
      title: 'Table system errors',
      left: [table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period, label: 'system errors' })],
      width: 6,
    }),
    new GraphWidget({
      title: 'Table latency p99 (ms)',
      left: [Operation.GET_ITEM, Operation.QUERY, Operation.TRANSACT_WRITE_ITEMS].map((operation) =>
        table.metricSuccessfulRequestLatency({
          period,
          statistic: Stats.p(99),
          dimensionsMap: { TableName: table.tableName, Operation: operation },
          label: operation,
        }),
      ),
      width: 6,
    }),
  ];
}

/** A state machine's executions by outcome, and their p99 duration. */
function workflowRunsWidget(title: string, stateMachine: IStateMachine): GraphWidget {
  const period = Duration.minutes(5);
  return new GraphWidget({
    title,
    left: [
      stateMachine.metricStarted({ period, statistic: Stats.SUM, label: 'started' }),
      stateMachine.metricSucceeded({ period, statistic: Stats.SUM, label: 'succeeded' }),
      stateMachine.metricFailed({ period, statistic: Stats.SUM, label: 'failed' }),
      stateMachine.metricTimedOut({ period, statistic: Stats.SUM, label: 'timed out' }),
    ],
    right: [stateMachine.metricTime({ period, statistic: Stats.p(99), label: 'duration p99 (ms)' })],
    width: 8,
  });
}

function functionWidgets(functions: ReadonlyMap<string, IFunction>): IWidget[] {
  const period = Duration.minutes(5);
  const each = (metric: (fn: IFunction, handler: string) => IMetric) => [...functions].map(([handler, fn]) => metric(fn, handler));
  return [
    new GraphWidget({ title: 'Function errors', left: each((fn, handler) => fn.metricErrors({ period, statistic: Stats.SUM, label: handler })), width: 8 }),
    new GraphWidget({
      title: 'Function duration p99 (ms)',
      left: each((fn, handler) => fn.metricDuration({ period, statistic: Stats.p(99), label: handler })),
      width: 8,
    }),
    new GraphWidget({
      title: 'Lambda concurrency and throttles (account)',
      left: [new Metric({ namespace: 'AWS/Lambda', metricName: 'ConcurrentExecutions', statistic: Stats.MAXIMUM, period, label: 'concurrent executions' })],
      right: [new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: Stats.SUM, period, label: 'throttles' })],
      width: 8,
    }),
  ];
}

/** WAF for CloudFront publishes its metrics in us-east-1, whatever the API's region. */
function edgeWidget(webAcl: { metricName: string; ruleMetricNames: readonly string[] }): IWidget {
  const blocked = (rule: string) =>
    new Metric({
      namespace: 'AWS/WAFV2',
      metricName: 'BlockedRequests',
      dimensionsMap: { WebACL: webAcl.metricName, Rule: rule },
      statistic: Stats.SUM,
      period: Duration.minutes(5),
      region: 'us-east-1',
      label: rule,
    });
  return new GraphWidget({
    title: 'Per-client limits: requests blocked by rule (WAF)',
    left: webAcl.ruleMetricNames.map(blocked),
    right: [
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'AllowedRequests',
        dimensionsMap: { WebACL: webAcl.metricName, Rule: 'ALL' },
        statistic: Stats.SUM,
        period: Duration.minutes(5),
        region: 'us-east-1',
        label: 'allowed',
      }),
    ],
    width: 24,
  });
}

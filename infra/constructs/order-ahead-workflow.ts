import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  Chain,
  Choice,
  Condition,
  DefinitionBody,
  JitterType,
  JsonPath,
  LogLevel,
  StateMachine,
  StateMachineType,
  TaskInput,
  Timeout,
  type RetryProps,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { VALIDATION_TIMEOUT_SECONDS } from '#shared/domain/order-ahead/orders.ts';
import { ApiFunction, FUNCTION_LOG_RETENTION, FUNCTION_TIMEOUT_SECONDS } from './api-function.ts';

/** The Task function's module under functions/ and its export (not `handler`: it is no HTTP route). */
export const VALIDATION_TASK_HANDLER = 'order-ahead-validate';
export const VALIDATION_TASK_EXPORT = 'stepHandler';

/** Names of the states, read by the template tests and the local runner's overrides. */
export const WORKFLOW_STATES = {
  validate: 'Validate',
  choice: 'IsOrderValid',
  recordValid: 'RecordValid',
  recordInvalid: 'RecordInvalid',
  recordFailure: 'RecordValidationFailure',
} as const;

/**
 * Transient failures (throttling, a cold start timing out, DynamoDB hiccups) are retried with
 * exponential backoff and full jitter, a bounded number of times: 4 attempts of at most 10 s plus
 * at most 1 + 2 + 4 s of waiting fit well inside the state machine timeout.
 */
export const TASK_RETRY: RetryProps = {
  errors: ['States.TaskFailed', 'States.Timeout'],
  interval: Duration.seconds(1),
  backoffRate: 2,
  maxAttempts: 3,
  maxDelay: Duration.seconds(4),
  jitterStrategy: JitterType.FULL,
};

/**
 * One Task of an order-ahead workflow: the step's Lambda invoked with `{...payload, order_uuid}`, its
 * answer (payload only) stored at `resultPath`, the given Retry, and the Task's timeout = the function's.
 */
export function lambdaStep(
  scope: Construct,
  name: string,
  fn: LambdaFunction,
  payload: Record<string, unknown>,
  resultPath: string,
  retry: RetryProps,
): LambdaInvoke {
  const task = new LambdaInvoke(scope, name, {
    lambdaFunction: fn,
    payload: TaskInput.fromObject({ ...payload, order_uuid: JsonPath.stringAt('$.order_uuid') }),
    payloadResponseOnly: true,
    // The construct's own service-exception retry would wait up to ~2 minutes; the step's Retry replaces it.
    retryOnServiceExceptions: false,
    taskTimeout: Timeout.duration(Duration.seconds(FUNCTION_TIMEOUT_SECONDS)),
    resultPath,
  });
  task.addRetry(retry);
  return task;
}

export interface OrderAheadWorkflowProps {
  table: ITable;
  /** Functions that start executions (routes with `startsValidation`): get states:StartExecution and STATE_MACHINE_ARN. */
  startingFunctions: readonly LambdaFunction[];
}

/**
 * Order-ahead validation: an Express state machine (short, high-volume, started asynchronously with
 * StartExecution by the start route) around one Task function:
 *
 *   Validate (read-only check + pricing; Retry; Catch -> RecordValidationFailure)
 *   -> IsOrderValid (Choice on $.outcome.valid)
 *      -> RecordValid   (externally_valid + priced order, and order_ahead.validated for the order's app)
 *      -> RecordInvalid (externally_invalid + error array, and order_ahead.invalidated)
 *   RecordValidationFailure (externally_invalid, generic error, and order_ahead.invalidated)
 *
 * Default JSONPath query language: the same definition runs locally in aws-local-stepfunctions
 * (scripts/local/workflows.ts), which does not run JSONata.
 */
export class OrderAheadWorkflow extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly validationFunction: ApiFunction;

  public constructor(scope: Construct, id: string, { table, startingFunctions }: OrderAheadWorkflowProps) {
    super(scope, id);

    this.validationFunction = new ApiFunction(this, 'ValidateFunction', { handlerName: VALIDATION_TASK_HANDLER, handler: VALIDATION_TASK_EXPORT });
    this.validationFunction.bindTable({ table, accessMode: 'RW' });

    const step = (name: string, payload: Record<string, unknown>, resultPath: string) =>
      lambdaStep(this, name, this.validationFunction, payload, resultPath, TASK_RETRY);

    const recordFailure = step(WORKFLOW_STATES.recordFailure, { step: 'record_failure', failure: JsonPath.objectAt('$.failure') }, '$.recorded');
    const catchToFailure = { errors: ['States.ALL'], resultPath: '$.failure' };

    const validate = step(WORKFLOW_STATES.validate, { step: 'validate' }, '$.outcome');
    validate.addCatch(recordFailure, catchToFailure);
    const recordValid = step(
      WORKFLOW_STATES.recordValid,
      { step: 'record_valid', app_id: JsonPath.numberAt('$.outcome.app_id'), priced: JsonPath.objectAt('$.outcome.priced') },
      '$.recorded',
    );
    recordValid.addCatch(recordFailure, catchToFailure);
    const recordInvalid = step(
      WORKFLOW_STATES.recordInvalid,
      { step: 'record_invalid', app_id: JsonPath.numberAt('$.outcome.app_id'), errors: JsonPath.objectAt('$.outcome.errors') },
      '$.recorded',
    );
    recordInvalid.addCatch(recordFailure, catchToFailure);

    const definition = Chain.start(validate).next(
      new Choice(this, WORKFLOW_STATES.choice).when(Condition.booleanEquals('$.outcome.valid', true), recordValid).otherwise(recordInvalid),
    );

    const logGroup = new LogGroup(this, 'LogGroup', { retention: FUNCTION_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.EXPRESS,
      definitionBody: DefinitionBody.fromChainable(definition),
      timeout: Duration.seconds(VALIDATION_TIMEOUT_SECONDS),
      // ERROR only, without execution data: inputs and outputs carry orders and user ids (privacy), and
      // every logged event is billed; a failed execution's error and cause are what an operator needs.
      logs: { destination: logGroup, level: LogLevel.ERROR, includeExecutionData: false },
      tracingEnabled: true,
      comment: 'Order-ahead validation: validate and price a proposed order, then record externally_valid or externally_invalid',
    });

    Validations.of(this.stateMachine).acknowledge(
      { id: 'AwsSolutions-SF1', reason: 'Logs ERROR events without execution data on purpose: orders and user ids stay out of logs (docs/operations.md).' },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Log delivery (logs:*LogDelivery, DescribeResourcePolicies) and X-Ray tracing actions support no resource-level permissions.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.validationFunction.node.defaultChild as CfnFunction)}.Arn>:*]`,
        reason: 'LambdaInvoke grants the Task function and its versions (`:*`); the definition invokes only this function.',
      },
    );

    for (const fn of startingFunctions) {
      this.stateMachine.grantStartExecution(fn);
      fn.addEnvironment('STATE_MACHINE_ARN', this.stateMachine.stateMachineArn);
    }
  }
}

import { Chain, Choice, Condition, JsonPath, LogLevel, StateMachineType, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { VALIDATION_TIMEOUT_SECONDS } from '#shared/domain/order-ahead/orders.ts';
import { STATE_MACHINE_ARN_ENV } from '#shared/workflows/executions.ts';
import { ApiFunction } from './api-function.ts';
import { TRANSIENT_TASK_ERRORS, backoffRetry, lambdaStep, taskStateMachine, type TaskWorkflowProps } from './task-workflow.ts';

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
export const TASK_RETRY = backoffRetry(TRANSIENT_TASK_ERRORS, { intervalSeconds: 1, maxAttempts: 3, maxDelaySeconds: 4 });

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

  public constructor(scope: Construct, id: string, { table, startingFunctions }: TaskWorkflowProps) {
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

    this.stateMachine = taskStateMachine(this, {
      taskFunction: this.validationFunction,
      definition,
      stateMachineType: StateMachineType.EXPRESS,
      timeoutSeconds: VALIDATION_TIMEOUT_SECONDS,
      // ERROR only: every logged event is billed; a failed execution's error and cause are what an operator needs.
      logLevel: LogLevel.ERROR,
      comment: 'Order-ahead validation: validate and price a proposed order, then record externally_valid or externally_invalid',
      acknowledgements: [
        { id: 'AwsSolutions-SF1', reason: 'Logs ERROR events without execution data on purpose: orders and user ids stay out of logs (docs/operations.md).' },
      ],
      startingFunctions,
      arnEnvironment: STATE_MACHINE_ARN_ENV.validation,
    });
  }
}

import { Duration } from 'aws-cdk-lib';
import { Chain, Choice, Condition, JsonPath, LogLevel, StateMachineType, Succeed, Wait, WaitTime, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { COMPLETION_TIMEOUT_SECONDS, PROVIDER_CUTOFF_SECONDS, PROVIDER_POLL_SECONDS } from '#shared/domain/order-ahead/orders.ts';
import { STATE_MACHINE_ARN_ENV } from '#shared/workflows/executions.ts';
import { ApiFunction } from './api-function.ts';
import { TRANSIENT_TASK_ERRORS, backoffRetry, lambdaStep, taskStateMachine, type TaskWorkflowProps } from './task-workflow.ts';

/** The Task function's module under functions/ and its export (not `handler`: it is no HTTP route). */
export const COMPLETION_TASK_HANDLER = 'order-ahead-completion-steps';
export const COMPLETION_TASK_EXPORT = 'stepHandler';

/** Names of the states, read by the template tests and the local runner's overrides. */
export const COMPLETION_STATES = {
  charge: 'Charge',
  charged: 'IsCharged',
  forward: 'Forward',
  answered: 'ProviderAnswered',
  wait: 'WaitForProvider',
  check: 'CheckProvider',
  completed: 'Completed',
  reject: 'Reject',
} as const;

/**
 * Charging and asking the provider: transient failures retried with full jitter. The charge's retries
 * outlast the settlement lease (30 s: 1 + 2 + 4 + 8 + 16), so a step that crashed holding it can run again.
 */
export const COMPLETION_TASK_RETRY = backoffRetry(TRANSIENT_TASK_ERRORS, { intervalSeconds: 1, maxAttempts: 5, maxDelaySeconds: 16 });

/** A rejection must happen (it gives money back): retried longer; the poll's backstop covers the rest. */
export const REJECT_RETRY = backoffRetry(['States.ALL'], { intervalSeconds: 2, maxAttempts: 8, maxDelaySeconds: 30 });

/**
 * Order-ahead completion: a STANDARD state machine (exactly-once executions, one per order by name; it
 * waits on the provider for up to the cut-off, which Standard prices per transition, not per second):
 *
 *   Charge (the settlement saga; a decline is an outcome) -> IsCharged
 *     -> Forward (submit to the ordering provider) -> ProviderAnswered
 *          accepted -> Completed
 *          pending  -> WaitForProvider (PROVIDER_POLL_SECONDS) -> CheckProvider -> ProviderAnswered
 *          rejected (by the provider, or pending at the cut-off) -> Reject
 *     -> Reject (not charged)
 *   Every Task's Catch -> Reject, which reverses a charge, keeps the reason, and ends the order `rejected`.
 *
 * Default JSONPath query language: the same definition runs locally in aws-local-stepfunctions.
 * Logs every event (without execution data: no order contents in logs) and X-Ray tracing.
 */
export class OrderAheadCompletionWorkflow extends Construct {
  public readonly stateMachine: StateMachine;
  public readonly completionFunction: ApiFunction;

  public constructor(scope: Construct, id: string, { table, startingFunctions }: TaskWorkflowProps) {
    super(scope, id);

    this.completionFunction = new ApiFunction(this, 'StepsFunction', {
      handlerName: COMPLETION_TASK_HANDLER,
      handler: COMPLETION_TASK_EXPORT,
      environment: { ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS: String(PROVIDER_CUTOFF_SECONDS) },
    });
    this.completionFunction.bindTable({ table, accessMode: 'RW' });

    const step = (name: string, payload: Record<string, unknown>, resultPath: string, retry = COMPLETION_TASK_RETRY) =>
      lambdaStep(this, name, this.completionFunction, payload, resultPath, retry);

    const reject = step(COMPLETION_STATES.reject, { step: 'reject', state: JsonPath.entirePayload }, '$.rejected', REJECT_RETRY);
    const catchToReject = { errors: ['States.ALL'], resultPath: '$.failure' };

    const charge = step(COMPLETION_STATES.charge, { step: 'charge' }, '$.charge');
    charge.addCatch(reject, catchToReject);
    const forward = step(COMPLETION_STATES.forward, { step: 'forward' }, '$.provider');
    forward.addCatch(reject, catchToReject);
    const check = step(COMPLETION_STATES.check, { step: 'check' }, '$.provider');
    check.addCatch(reject, catchToReject);

    const answered = new Choice(this, COMPLETION_STATES.answered)
      .when(Condition.stringEquals('$.provider.status', 'accepted'), new Succeed(this, COMPLETION_STATES.completed))
      .when(
        Condition.stringEquals('$.provider.status', 'pending'),
        new Wait(this, COMPLETION_STATES.wait, { time: WaitTime.duration(Duration.seconds(PROVIDER_POLL_SECONDS)) }).next(check),
      )
      .otherwise(reject);
    forward.next(answered);
    check.next(answered);

    const definition = Chain.start(charge).next(
      new Choice(this, COMPLETION_STATES.charged).when(Condition.booleanEquals('$.charge.charged', true), forward).otherwise(reject),
    );

    this.stateMachine = taskStateMachine(this, {
      taskFunction: this.completionFunction,
      definition,
      stateMachineType: StateMachineType.STANDARD,
      timeoutSeconds: COMPLETION_TIMEOUT_SECONDS,
      logLevel: LogLevel.ALL,
      comment: 'Order-ahead completion: charge once, forward to the ordering provider, then completed or rejected (charge reversed)',
      startingFunctions,
      arnEnvironment: STATE_MACHINE_ARN_ENV.completion,
    });
  }
}

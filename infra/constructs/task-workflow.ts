import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import {
  DefinitionBody,
  JitterType,
  JsonPath,
  StateMachine,
  TaskInput,
  Timeout,
  type IChainable,
  type LogLevel,
  type RetryProps,
  type StateMachineType,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { FUNCTION_LOG_RETENTION, FUNCTION_TIMEOUT_SECONDS, type ApiFunction } from './api-function.ts';

/**
 * What the two order-ahead workflows (validation, completion) build alike: Tasks that invoke one step
 * function, and a state machine around them with its log group, its cdk-nag acknowledgements and the
 * grants of the functions that start it.
 */

/** The failures of a Task worth another attempt: the function failed or timed out (throttling, a cold start, DynamoDB hiccups). */
export const TRANSIENT_TASK_ERRORS = ['States.TaskFailed', 'States.Timeout'];

/** A Retry with exponential backoff (doubling from `intervalSeconds`, capped at `maxDelaySeconds`) and full jitter. */
export function backoffRetry(
  errors: string[],
  { intervalSeconds, maxAttempts, maxDelaySeconds }: { intervalSeconds: number; maxAttempts: number; maxDelaySeconds: number },
): RetryProps {
  return {
    errors,
    interval: Duration.seconds(intervalSeconds),
    backoffRate: 2,
    maxAttempts,
    maxDelay: Duration.seconds(maxDelaySeconds),
    jitterStrategy: JitterType.FULL,
  };
}

/** What the stack gives a Task workflow construct. */
export interface TaskWorkflowProps {
  table: ITable;
  /** Functions that start executions (routes with `startsValidation` / `startsCompletion`): get states:StartExecution and the ARN. */
  startingFunctions: readonly LambdaFunction[];
}

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

export interface TaskStateMachineProps {
  /** The one function every Task of the definition invokes. */
  taskFunction: ApiFunction;
  definition: IChainable;
  stateMachineType: StateMachineType;
  timeoutSeconds: number;
  /** Never with execution data: inputs and outputs carry orders and user ids (privacy). */
  logLevel: LogLevel;
  comment: string;
  /** cdk-nag findings this state machine has beyond the two every Task workflow has (log delivery, the Task's `:*` grant). */
  acknowledgements?: readonly { id: string; reason: string }[];
  /** Functions that start executions: each gets states:StartExecution and the state machine's ARN in `arnEnvironment`. */
  startingFunctions: readonly LambdaFunction[];
  arnEnvironment: string;
}

/** The state machine (construct ids `LogGroup` and `StateMachine` under `scope`) of a Task workflow. */
export function taskStateMachine(scope: Construct, props: TaskStateMachineProps): StateMachine {
  const logGroup = new LogGroup(scope, 'LogGroup', { retention: FUNCTION_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
  const stateMachine = new StateMachine(scope, 'StateMachine', {
    stateMachineType: props.stateMachineType,
    definitionBody: DefinitionBody.fromChainable(props.definition),
    timeout: Duration.seconds(props.timeoutSeconds),
    logs: { destination: logGroup, level: props.logLevel, includeExecutionData: false },
    tracingEnabled: true,
    comment: props.comment,
  });

  Validations.of(stateMachine).acknowledge(
    ...(props.acknowledgements ?? []),
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Log delivery (logs:*LogDelivery, DescribeResourcePolicies) and X-Ray tracing actions support no resource-level permissions.',
    },
    {
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(scope).getLogicalId(props.taskFunction.node.defaultChild as CfnFunction)}.Arn>:*]`,
      reason: 'LambdaInvoke grants the Task function and its versions (`:*`); the definition invokes only this function.',
    },
  );

  for (const fn of props.startingFunctions) {
    stateMachine.grantStartExecution(fn);
    fn.addEnvironment(props.arnEnvironment, stateMachine.stateMachineArn);
  }
  return stateMachine;
}

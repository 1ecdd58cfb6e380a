/**
 * The port through which routes start the order-ahead state machines:
 * - `validation` (Express): started by POST /v15/order_ahead/orders, env STATE_MACHINE_ARN;
 * - `completion` (Standard): started by POST order_completion_url, env COMPLETION_STATE_MACHINE_ARN.
 * In AWS: StartExecution (asynchronous: the call returns once the execution is accepted). A Standard
 * state machine runs at most one execution per name, so starting `complete-<uuid>` again is harmless:
 * a repeat of a running execution answers as the first, a finished one ExecutionAlreadyExists.
 * Locally: the same client, pointed by STEPFUNCTIONS_ENDPOINT at the local workflow service (its own
 * process, scripts/local/workflow-service.ts), which runs the same definitions in aws-local-stepfunctions
 * with the same one-execution-per-name rule.
 */
import type { SFNClient } from '@aws-sdk/client-sfn';
import { awsClientConfig, loadedOnFirstUse, optionalEnv, requireEnv } from '#shared/env.ts';

export type WorkflowKind = 'validation' | 'completion';

export interface WorkflowInput {
  order_uuid: string;
}

/** Environment variable naming each state machine's ARN in the functions that start it. */
export const STATE_MACHINE_ARN_ENV: Record<WorkflowKind, string> = {
  validation: 'STATE_MACHINE_ARN',
  completion: 'COMPLETION_STATE_MACHINE_ARN',
};

type SfnModule = typeof import('@aws-sdk/client-sfn');

/**
 * @aws-sdk/client-sfn is loaded on the first start, not at import (`loadedOnFirstUse`, shared/env.ts): it cost
 * the cold start of every function that can start an execution ~20-35 ms of import (issue 19), requests that
 * end before the start (a refused or invalid order) included.
 */
const loadSfn = loadedOnFirstUse((): Promise<SfnModule> => import('@aws-sdk/client-sfn'));

let client: { sfn: SFNClient; endpoint: string | undefined } | undefined;

/** One client per process; STEPFUNCTIONS_ENDPOINT points it at the local service (unset in AWS). */
function sfn({ SFNClient }: SfnModule): SFNClient {
  const endpoint = optionalEnv('STEPFUNCTIONS_ENDPOINT');
  if (client && client.endpoint === endpoint) return client.sfn;
  client?.sfn.destroy();
  const sfnClient = new SFNClient(awsClientConfig('STEPFUNCTIONS_ENDPOINT'));
  // As for DynamoDB (shared/db/client.ts): the logger middleware copies every call for a logger that discards it.
  sfnClient.middlewareStack.remove('loggerMiddleware');
  client = { sfn: sfnClient, endpoint };
  return sfnClient;
}

async function startExecution(kind: WorkflowKind, input: WorkflowInput, executionName: string): Promise<void> {
  const sdk = await loadSfn();
  try {
    await sfn(sdk).send(
      new sdk.StartExecutionCommand({ stateMachineArn: requireEnv(STATE_MACHINE_ARN_ENV[kind]), name: executionName, input: JSON.stringify(input) }),
    );
  } catch (error) {
    // The execution of that name exists (and is or was running): the order is in hand.
    if ((error as { name?: string }).name === 'ExecutionAlreadyExists') return;
    throw error;
  }
}

/** Starts an order's validation (execution names identify the order in the console and logs). */
export function startValidation(input: WorkflowInput): Promise<void> {
  return startExecution('validation', input, `order-${input.order_uuid}`);
}

/** Starts an order's completion; one execution per order, however often it is asked for. */
export function startCompletion(input: WorkflowInput): Promise<void> {
  return startExecution('completion', input, `complete-${input.order_uuid}`);
}

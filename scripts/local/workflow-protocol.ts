/**
 * What the local workflow service (scripts/local/workflow-service.ts) and the process that starts it
 * (scripts/local/workflows.ts) say to each other over the fork IPC channel, and the local state machine
 * ARNs the routes are given (STATE_MACHINE_ARN, COMPLETION_STATE_MACHINE_ARN) to start executions with.
 */
import type { WorkflowKind } from '#shared/workflows/executions.ts';

export const LOCAL_WORKFLOW_REGION = 'us-east-1';
export const LOCAL_WORKFLOW_ACCOUNT = '000000000000';

/** The local ARN of each state machine (the service accepts StartExecution for these only). */
export function localStateMachineArn(kind: WorkflowKind): string {
  return `arn:aws:states:${LOCAL_WORKFLOW_REGION}:${LOCAL_WORKFLOW_ACCOUNT}:stateMachine:order-ahead-${kind}`;
}

/** How the service runs the definitions (passed as its argument, JSON). */
export interface WorkflowServiceOptions {
  /** Task states whose function runs in the starting process (invoked over IPC), by state name. */
  overriddenTasks?: string[];
  /** Overrides every Retry pause (milliseconds). */
  retryIntervalMs?: number;
  /** Overrides every Wait state (milliseconds). */
  waitMs?: number;
}

/** Service -> starter. */
export type WorkflowServiceMessage =
  | { type: 'ready'; port: number }
  | { type: 'invoke'; id: number; state: string; input: unknown }
  /** Answers `hold` and `release`: `release` once every held and running execution has finished. */
  | { type: 'held' }
  | { type: 'drained'; executions: number };

/** Starter -> service. */
export type WorkflowServiceReply =
  | { type: 'invoked'; id: number; output?: unknown; error?: { name: string; message: string } }
  | { type: 'stop' }
  /**
   * The bench's (bench/harness/server.ts) measurement window, never a route's: `hold` queues the executions started
   * from now on (StartExecution answers exactly as before), `release` runs them and answers `drained` once
   * nothing runs any more. Over this IPC channel only: no HTTP request reaches it.
   */
  | { type: 'hold' }
  | { type: 'release' };

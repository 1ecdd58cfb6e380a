/**
 * Local Step Functions: the order-ahead validation state machine runs here from the same ASL
 * definition the CDK stack deploys (scripts/local/workflow-definition.ts synthesizes the construct),
 * in aws-local-stepfunctions. Each Task state runs the function its Resource names, in this process
 * (`taskResourceLocalHandlers`), as the local gateway runs the route handlers.
 *
 * startLocalWorkflows() registers the runner with the start route's workflow port
 * (shared/workflows/validation.ts); executions then start asynchronously, as StartExecution does.
 */
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { registerLocalValidationRunner, type ValidationInput } from '#shared/workflows/validation.ts';
import type { SynthesizedWorkflow } from './workflow-definition.ts';

type TaskHandler = (input: unknown) => Promise<unknown>;
type StateMachineModule = typeof import('aws-local-stepfunctions');

export interface LocalWorkflowOptions {
  /**
   * Replaces what a Task state runs (by state name), e.g. a throwing handler to exercise Retry and
   * Catch. The rest of the definition (Retry, Catch, Choice) runs unchanged.
   */
  taskHandlers?: Record<string, TaskHandler>;
  /** Overrides every Retry pause (milliseconds), so a test of retries need not wait out the backoff. */
  retryIntervalMs?: number;
  /** Synthesize the definition now instead of at the first execution (default true). */
  warm?: boolean;
}

const functionsDirectory = fileURLToPath(new URL('../../functions/', import.meta.url));

let machine: Promise<{ stateMachine: InstanceType<StateMachineModule['StateMachine']>; workflow: SynthesizedWorkflow }> | undefined;
const running = new Set<{ abort: () => void; settled: Promise<unknown> }>();

function loadMachine() {
  machine ??= (async () => {
    const [{ synthesizeWorkflow }, { StateMachine }] = await Promise.all([import('./workflow-definition.ts'), import('aws-local-stepfunctions')]);
    const workflow = synthesizeWorkflow();
    return { stateMachine: new StateMachine(workflow.definition as never), workflow };
  })();
  return machine;
}

/** A Task's function, invoked as Lambda would: JSON in, JSON out. */
function localTask(handlerName: string, exportName: string): TaskHandler {
  let loaded: Promise<(event: unknown) => Promise<unknown>> | undefined;
  return async (input) => {
    loaded ??= import(pathToFileURL(join(functionsDirectory, `${handlerName}.ts`)).href).then((module: Record<string, unknown>) => {
      const fn = module[exportName];
      if (typeof fn !== 'function') throw new Error(`functions/${handlerName}.ts does not export ${exportName}`);
      return fn as (event: unknown) => Promise<unknown>;
    });
    const result = await (await loaded)(JSON.parse(JSON.stringify(input)));
    return result === undefined ? null : JSON.parse(JSON.stringify(result));
  };
}

function logLine(level: 'info' | 'error', message: string, fields: Record<string, unknown>): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

async function execute(input: ValidationInput, options: LocalWorkflowOptions): Promise<void> {
  const { stateMachine, workflow } = await loadMachine();
  const taskResourceLocalHandlers: Record<string, TaskHandler> = {};
  for (const [stateName, target] of Object.entries(workflow.tasks)) {
    taskResourceLocalHandlers[stateName] = options.taskHandlers?.[stateName] ?? localTask(target.handlerName, target.exportName);
  }
  const retryIntervalOverrides =
    options.retryIntervalMs === undefined ? undefined : Object.fromEntries(Object.keys(workflow.tasks).map((stateName) => [stateName, options.retryIntervalMs!]));
  const execution = stateMachine.run(input as never, {
    overrides: { taskResourceLocalHandlers: taskResourceLocalHandlers as never, retryIntervalOverrides },
    noThrowOnAbort: true,
  });
  const entry = { abort: execution.abort, settled: execution.result };
  running.add(entry);
  try {
    await execution.result;
    logLine('info', 'local workflow execution succeeded', { order_uuid: input.order_uuid });
  } finally {
    running.delete(entry);
  }
}

export async function startLocalWorkflows(options: LocalWorkflowOptions = {}): Promise<void> {
  registerLocalValidationRunner((input) => {
    execute(input, options).catch((error: unknown) => {
      // An execution that fails (e.g. the state machine timeout) leaves the order to the poll's deadline, as in AWS.
      logLine('error', 'local workflow execution failed', { order_uuid: input.order_uuid, error: (error as Error).message });
    });
  });
  if (options.warm ?? true) await loadMachine();
}

/** Aborts running executions and unregisters the runner (tests call it before closing). */
export async function stopLocalWorkflows(): Promise<void> {
  registerLocalValidationRunner(undefined);
  for (const entry of running) entry.abort();
  running.clear();
}

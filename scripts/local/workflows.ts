/**
 * Local Step Functions: the order-ahead state machines (validation, completion) run here from the same
 * ASL definitions the CDK stack deploys (scripts/local/workflow-definition.ts synthesizes the constructs),
 * in aws-local-stepfunctions. Each Task state runs the function its Resource names, in this process
 * (`taskResourceLocalHandlers`), as the local gateway runs the route handlers.
 *
 * startLocalWorkflows() registers the runner with the workflow port (shared/workflows/executions.ts);
 * executions then start asynchronously, as StartExecution does, and like a Standard state machine the
 * runner starts at most one execution per name (a completion asked for twice runs once).
 */
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { registerLocalWorkflowRunner, type WorkflowInput, type WorkflowKind } from '#shared/workflows/executions.ts';
import type { SynthesizedWorkflow } from './workflow-definition.ts';

type TaskHandler = (input: unknown) => Promise<unknown>;
type StateMachineModule = typeof import('aws-local-stepfunctions');

export interface LocalWorkflowOptions {
  /**
   * Replaces what a Task state runs (by state name, in either machine), e.g. a throwing handler to
   * exercise Retry and Catch. The rest of the definition (Retry, Catch, Choice, Wait) runs unchanged.
   */
  taskHandlers?: Record<string, TaskHandler>;
  /** Overrides every Retry pause (milliseconds), so a test of retries need not wait out the backoff. */
  retryIntervalMs?: number;
  /** Overrides every Wait state (milliseconds), e.g. the completion's wait between questions to the provider. */
  waitMs?: number;
  /** Synthesize the definitions now instead of at the first execution (default true). */
  warm?: boolean;
}

const KINDS: readonly WorkflowKind[] = ['validation', 'completion'];
const functionsDirectory = fileURLToPath(new URL('../../functions/', import.meta.url));

type LoadedMachine = { stateMachine: InstanceType<StateMachineModule['StateMachine']>; workflow: SynthesizedWorkflow };
const machines = new Map<WorkflowKind, Promise<LoadedMachine>>();
const running = new Set<{ abort: () => void; settled: Promise<unknown> }>();
/** Names of the executions started in this process (a Standard state machine's one-execution-per-name rule). */
const startedNames = new Set<string>();
const STARTED_NAMES_LIMIT = 100_000;
/** Executions accepted but not yet started (they start on the next turn of the event loop). */
const pendingStarts = new Set<NodeJS.Immediate>();

function loadMachine(kind: WorkflowKind): Promise<LoadedMachine> {
  let machine = machines.get(kind);
  if (!machine) {
    machine = (async () => {
      const [{ synthesizeWorkflow }, { StateMachine }] = await Promise.all([import('./workflow-definition.ts'), import('aws-local-stepfunctions')]);
      const workflow = synthesizeWorkflow(kind);
      return { stateMachine: new StateMachine(workflow.definition as never), workflow };
    })();
    machines.set(kind, machine);
  }
  return machine;
}

/** Task functions by module and export, imported once per process (as a warm Lambda keeps its module). */
const taskFunctions = new Map<string, Promise<(event: unknown) => Promise<unknown>>>();

/** A Task's function, invoked as Lambda would: JSON in, JSON out. */
function localTask(handlerName: string, exportName: string): TaskHandler {
  return async (input) => {
    const name = `${handlerName}#${exportName}`;
    let loaded = taskFunctions.get(name);
    if (!loaded) {
      loaded = import(pathToFileURL(join(functionsDirectory, `${handlerName}.ts`)).href).then((module: Record<string, unknown>) => {
        const fn = module[exportName];
        if (typeof fn !== 'function') throw new Error(`functions/${handlerName}.ts does not export ${exportName}`);
        return fn as (event: unknown) => Promise<unknown>;
      });
      // A module that failed to load is imported again by the next Task (the Retry sees the failure).
      loaded.catch(() => taskFunctions.delete(name));
      taskFunctions.set(name, loaded);
    }
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

function statesOfType(definition: Record<string, any>, type: string): string[] {
  return Object.entries(definition.States as Record<string, { Type: string }>).filter(([, state]) => state.Type === type).map(([name]) => name);
}

async function execute(kind: WorkflowKind, input: WorkflowInput, options: LocalWorkflowOptions): Promise<void> {
  const { stateMachine, workflow } = await loadMachine(kind);
  const taskResourceLocalHandlers: Record<string, TaskHandler> = {};
  for (const [stateName, target] of Object.entries(workflow.tasks)) {
    taskResourceLocalHandlers[stateName] = options.taskHandlers?.[stateName] ?? localTask(target.handlerName, target.exportName);
  }
  const everyState = (names: readonly string[], ms: number | undefined) => (ms === undefined ? undefined : Object.fromEntries(names.map((name) => [name, ms])));
  const execution = stateMachine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: taskResourceLocalHandlers as never,
      retryIntervalOverrides: everyState(Object.keys(workflow.tasks), options.retryIntervalMs),
      waitTimeOverrides: everyState(statesOfType(workflow.definition, 'Wait'), options.waitMs),
    },
    noThrowOnAbort: true,
  });
  const entry = { abort: execution.abort, settled: execution.result };
  running.add(entry);
  try {
    await execution.result;
    logLine('info', 'local workflow execution succeeded', { workflow: kind, order_uuid: input.order_uuid });
  } finally {
    running.delete(entry);
  }
}

export async function startLocalWorkflows(options: LocalWorkflowOptions = {}): Promise<void> {
  registerLocalWorkflowRunner((kind, input, executionName) => {
    if (kind === 'completion') {
      if (startedNames.has(executionName)) return;
      if (startedNames.size >= STARTED_NAMES_LIMIT) startedNames.clear();
      startedNames.add(executionName);
    }
    // StartExecution returns once the execution is accepted; it runs elsewhere. Here it starts after the
    // starting request has answered (the next turn of the event loop), so none of its work lands on that request.
    const pending = setImmediate(() => {
      pendingStarts.delete(pending);
      execute(kind, input, options).catch((error: unknown) => {
        // An execution that fails (e.g. the state machine timeout) leaves the order to the poll's deadline, as in AWS.
        logLine('error', 'local workflow execution failed', { workflow: kind, order_uuid: input.order_uuid, error: (error as Error).message });
      });
    });
    pendingStarts.add(pending);
  });
  if (options.warm ?? true) await Promise.all(KINDS.map(loadMachine));
}

/** Aborts running executions and unregisters the runner (tests call it before closing). */
export async function stopLocalWorkflows(): Promise<void> {
  registerLocalWorkflowRunner(undefined);
  for (const pending of pendingStarts) clearImmediate(pending);
  pendingStarts.clear();
  for (const entry of running) entry.abort();
  running.clear();
}

/**
 * Local Step Functions for the local stacks (`npm start`, the tests, the bench): starts the local workflow
 * service (scripts/local/workflow-service.ts) in its own process, as Step Functions is its own service, and
 * points this process's routes at it: STEPFUNCTIONS_ENDPOINT for the SFN client of the workflow port
 * (shared/workflows/executions.ts) and the local state machine ARNs in STATE_MACHINE_ARN and
 * COMPLETION_STATE_MACHINE_ARN. A route's StartExecution is then one HTTP request, as in AWS, and the
 * execution (its CPU and its DynamoDB calls) runs in the service, never on the request that started it.
 *
 * The service synthesizes the definitions the CDK constructs deploy and runs them in aws-local-stepfunctions,
 * each Task invoking its function in the service process. `taskHandlers` replaces what a Task runs: that
 * Task is invoked over the IPC channel and its handler runs here, in the starting process (where a test's
 * counters, gates and fault switches live); Retry, Catch, Choice and Wait still run in the service.
 *
 * holdLocalWorkflows / releaseLocalWorkflows are the bench's alone (bench/harness/server.ts calls them when the
 * bench runner asks over its own IPC channel; `npm start` and the routes never do): while the bench measures
 * a route that starts executions, the service queues them, so they do not share the measured requests'
 * CPU (on AWS they run on Step Functions and other Lambdas), and runs them when released.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { STATE_MACHINE_ARN_ENV, type WorkflowKind } from '#shared/workflows/executions.ts';
import { localStateMachineArn, type WorkflowServiceMessage, type WorkflowServiceOptions, type WorkflowServiceReply } from './workflow-protocol.ts';

type TaskHandler = (input: unknown) => Promise<unknown>;

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
  /** Environment the service's Task functions get on top of this process's (e.g. PUBLIC_BASE_URL, as the stack sets it). */
  env?: Record<string, string>;
}

const KINDS: readonly WorkflowKind[] = ['validation', 'completion'];
const SERVICE_MODULE = fileURLToPath(new URL('./workflow-service.ts', import.meta.url));
/** Synthesizing both constructs takes a few seconds on a busy machine. */
const START_TIMEOUT_MS = 90_000;

let service: ChildProcess | undefined;

function serializeError(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
}

function withoutFaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DYNAMODB_FAULTS: _faults, ...rest } = env;
  return rest;
}

/** Starts the local workflow service and points this process's workflow port at it. */
export async function startLocalWorkflows(options: LocalWorkflowOptions = {}): Promise<void> {
  if (service) throw new Error('the local workflow service is already running in this process');
  const serviceOptions: WorkflowServiceOptions = {
    overriddenTasks: Object.keys(options.taskHandlers ?? {}),
    retryIntervalMs: options.retryIntervalMs,
    waitMs: options.waitMs,
  };
  const child = fork(SERVICE_MODULE, [JSON.stringify(serviceOptions)], {
    // Its own Node flags (not this process's: a --cpu-prof of the gateway profiles the gateway only).
    execArgv: ['--import', 'tsx'],
    // Its logs go where this process's go (the terminal of `npm start`, the bench's server log).
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // DYNAMODB_FAULTS stays here: fault injection is a test's switch in its own process (test/faults),
    // and the Tasks a test overrides to meet the faults run here.
    env: { ...withoutFaults(process.env), ...options.env },
  });
  service = child;
  child.on('message', (message: WorkflowServiceMessage) => {
    if (message.type !== 'invoke') return;
    const handler = options.taskHandlers?.[message.state];
    const reply = (answer: WorkflowServiceReply) => {
      if (child.connected) child.send(answer);
    };
    if (!handler) {
      reply({ type: 'invoked', id: message.id, error: { name: 'Error', message: `no local handler for Task ${message.state}` } });
      return;
    }
    handler(message.input).then(
      (output) => reply({ type: 'invoked', id: message.id, output: output === undefined ? null : output }),
      (error: unknown) => reply({ type: 'invoked', id: message.id, error: serializeError(error) }),
    );
  });
  // The IPC channel must not keep a finished test or script alive; the service stops when it closes.
  child.unref();
  child.channel?.unref();

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local workflow service did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.on('message', (message: WorkflowServiceMessage) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve(message.port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local workflow service exited with code ${code} before it was ready`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    service = undefined;
    throw error;
  });

  process.env.STEPFUNCTIONS_ENDPOINT = `http://127.0.0.1:${port}`;
  for (const kind of KINDS) process.env[STATE_MACHINE_ARN_ENV[kind]] = localStateMachineArn(kind);
}

/** Stops the service (its running executions are abandoned) and unpoints the workflow port. */
export async function stopLocalWorkflows(): Promise<void> {
  const child = service;
  service = undefined;
  delete process.env.STEPFUNCTIONS_ENDPOINT;
  for (const kind of KINDS) delete process.env[STATE_MACHINE_ARN_ENV[kind]];
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' } satisfies WorkflowServiceReply);
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Resolves with the service's first message of `type` (rejects if the service exits first or after `timeoutMs`). */
function serviceAnswer<T extends WorkflowServiceMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<WorkflowServiceMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: WorkflowServiceMessage) => {
      if (message.type !== type) return;
      done();
      resolve(message as Extract<WorkflowServiceMessage, { type: T }>);
    };
    const onExit = () => {
      done();
      reject(new Error('the local workflow service exited'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the local workflow service did not answer ${type} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function runningService(): ChildProcess {
  if (!service?.connected) throw new Error('the local workflow service is not running in this process');
  return service;
}

/** The bench's measurement window: executions started from now on wait (StartExecution answers as always). */
export async function holdLocalWorkflows(): Promise<void> {
  const child = runningService();
  const held = serviceAnswer(child, 'held', 10_000);
  child.send({ type: 'hold' } satisfies WorkflowServiceReply);
  await held;
}

/** Runs the held executions; resolves with how many were held once no execution runs any more. */
export async function releaseLocalWorkflows(timeoutMs = 600_000): Promise<number> {
  const child = runningService();
  const drained = serviceAnswer(child, 'drained', timeoutMs);
  child.send({ type: 'release' } satisfies WorkflowServiceReply);
  return (await drained).executions;
}

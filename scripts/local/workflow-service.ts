/**
 * Local Step Functions, as its own service: a process (forked by scripts/local/workflows.ts) that runs the
 * order-ahead state machines (validation, completion) from the same ASL definitions the CDK stack deploys
 * (scripts/local/workflow-definition.ts synthesizes the constructs) in aws-local-stepfunctions, and answers
 * the Step Functions API's StartExecution (JSON 1.0 protocol, `X-Amz-Target: AWSStepFunctions.StartExecution`)
 * on a loopback port, so the routes start executions through the production SFN client
 * (shared/workflows/executions.ts, pointed here by STEPFUNCTIONS_ENDPOINT).
 *
 * Like the service, it answers once an execution is accepted and runs it afterwards, in this process: the
 * workflow's CPU and its DynamoDB calls never land on the request that started it. Each Task state runs the
 * function its Resource names (module under functions/ and export, imported once, as a warm Lambda keeps
 * it), with a Lambda-like context carrying a fresh request id; a Task the starting process overrides (tests:
 * a throwing handler, a gate) is invoked over the IPC channel and runs there.
 *
 * Execution names follow the state machine type: a STANDARD machine runs at most one execution per name (a
 * repeat while it runs with the same input answers as the first, otherwise ExecutionAlreadyExists); an
 * EXPRESS machine starts every request. Names live as long as this process (AWS keeps them 90 days).
 *
 * The bench (and only it: the control is a message on the IPC channel of the process that forked this one,
 * never an HTTP request) can hold executions while it measures the route that starts them: `hold` queues
 * every execution accepted from then on (StartExecution answers exactly as before, so the request's work
 * is unchanged), `release` runs the queue and answers `drained` once nothing runs. On AWS an execution
 * never shares the starting request's CPU; on the bench's 2 cores, forty executions in flight would.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StateMachine } from 'aws-local-stepfunctions';
import type { WorkflowKind } from '#shared/workflows/executions.ts';
import { localStateMachineArn, type WorkflowServiceMessage, type WorkflowServiceOptions, type WorkflowServiceReply } from './workflow-protocol.ts';
import { synthesizeWorkflow, type SynthesizedWorkflow } from './workflow-definition.ts';

type TaskHandler = (input: unknown) => Promise<unknown>;

const options = JSON.parse(process.argv[2] ?? '{}') as WorkflowServiceOptions;
const KINDS: readonly WorkflowKind[] = ['validation', 'completion'];
const functionsDirectory = fileURLToPath(new URL('../../functions/', import.meta.url));

function logLine(level: 'info' | 'error', message: string, fields: Record<string, unknown>): void {
  if (process.env.LOG_LEVEL === 'silent') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

interface LoadedMachine {
  kind: WorkflowKind;
  arn: string;
  standard: boolean;
  stateMachine: StateMachine;
  workflow: SynthesizedWorkflow;
  taskHandlers: Record<string, TaskHandler>;
}

/** Task functions by module and export, imported once per process (as a warm Lambda keeps its module). */
const taskFunctions = new Map<string, Promise<(event: unknown, context: unknown) => Promise<unknown>>>();

/** A Task's function, invoked as Lambda would: JSON in, JSON out, a context with a fresh request id. */
function localTask(handlerName: string, exportName: string): TaskHandler {
  const name = `${handlerName}#${exportName}`;
  return async (input) => {
    let loaded = taskFunctions.get(name);
    if (!loaded) {
      loaded = import(pathToFileURL(join(functionsDirectory, `${handlerName}.ts`)).href).then((module: Record<string, unknown>) => {
        const fn = module[exportName];
        if (typeof fn !== 'function') throw new Error(`functions/${handlerName}.ts does not export ${exportName}`);
        return fn as (event: unknown, context: unknown) => Promise<unknown>;
      });
      // A module that failed to load is imported again by the next Task (the Retry sees the failure).
      loaded.catch(() => taskFunctions.delete(name));
      taskFunctions.set(name, loaded);
    }
    const result = await (await loaded)(JSON.parse(JSON.stringify(input)), { functionName: handlerName, awsRequestId: randomUUID() });
    return result === undefined ? null : JSON.parse(JSON.stringify(result));
  };
}

/** Invocations of Tasks the starting process overrides, waiting for its answer. */
const remoteCalls = new Map<number, { resolve: (output: unknown) => void; reject: (error: Error) => void }>();
let nextRemoteCall = 0;

function remoteTask(stateName: string): TaskHandler {
  return (input) =>
    new Promise((resolve, reject) => {
      const id = nextRemoteCall++;
      remoteCalls.set(id, { resolve, reject });
      const message: WorkflowServiceMessage = { type: 'invoke', id, state: stateName, input };
      process.send!(message);
    });
}

process.on('message', (reply: WorkflowServiceReply) => {
  if (reply.type !== 'invoked') return;
  const call = remoteCalls.get(reply.id);
  if (!call) return;
  remoteCalls.delete(reply.id);
  if (reply.error) call.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
  else call.resolve(reply.output ?? null);
});

function statesOfType(definition: Record<string, any>, type: string): string[] {
  return Object.entries(definition.States as Record<string, { Type: string }>)
    .filter(([, state]) => state.Type === type)
    .map(([name]) => name);
}

function loadMachine(kind: WorkflowKind): LoadedMachine {
  const workflow = synthesizeWorkflow(kind);
  const taskHandlers: Record<string, TaskHandler> = {};
  for (const [stateName, target] of Object.entries(workflow.tasks)) {
    taskHandlers[stateName] = options.overriddenTasks?.includes(stateName) ? remoteTask(stateName) : localTask(target.handlerName, target.exportName);
  }
  return {
    kind,
    arn: localStateMachineArn(kind),
    standard: workflow.type === 'STANDARD',
    stateMachine: new StateMachine(workflow.definition as never),
    workflow,
    taskHandlers,
  };
}

// Synthesis is synchronous CPU work: done once, before the port is announced.
const machines = new Map(
  KINDS.map((kind) => {
    const machine = loadMachine(kind);
    return [machine.arn, machine];
  }),
);

interface ExecutionRecord {
  arn: string;
  input: string;
  startDate: number;
  running: boolean;
}

/** STANDARD machines' executions by ARN (one per name); bounded like everything a client can grow. */
const executions = new Map<string, ExecutionRecord>();
const EXECUTIONS_LIMIT = 100_000;
const running = new Set<{ abort: () => void }>();
/** Executions accepted while the bench holds them (null when not holding), run by `release`. */
let held: (() => void)[] | null = null;
/** Executions running (started and not finished): `release` answers when it is back to 0. */
let unfinished = 0;
let onIdle: (() => void) | undefined;

function everyState(names: readonly string[], ms: number | undefined): Record<string, number> | undefined {
  return ms === undefined ? undefined : Object.fromEntries(names.map((name) => [name, ms]));
}

async function execute(machine: LoadedMachine, record: ExecutionRecord, input: unknown, name: string): Promise<void> {
  const execution = machine.stateMachine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: machine.taskHandlers as never,
      retryIntervalOverrides: everyState(Object.keys(machine.workflow.tasks), options.retryIntervalMs),
      waitTimeOverrides: everyState(statesOfType(machine.workflow.definition, 'Wait'), options.waitMs),
    },
    context: { Execution: { Id: record.arn, Name: name, Input: input as never, StartTime: new Date(record.startDate * 1000).toISOString(), RoleArn: '' } },
    noThrowOnAbort: true,
  });
  const entry = { abort: execution.abort };
  running.add(entry);
  const fields = { workflow: machine.kind, execution_arn: record.arn, order_uuid: (input as { order_uuid?: unknown }).order_uuid };
  logLine('info', 'local workflow execution started', fields);
  try {
    await execution.result;
    logLine('info', 'local workflow execution succeeded', fields);
  } catch (error) {
    // An execution that fails (e.g. the state machine timeout) leaves the order to the poll's deadline, as in AWS.
    logLine('error', 'local workflow execution failed', { ...fields, error: (error as Error).message });
  } finally {
    running.delete(entry);
    record.running = false;
  }
}

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface StartExecutionInput {
  stateMachineArn?: unknown;
  name?: unknown;
  input?: unknown;
}

/** StartExecution: validates, records the name, answers, and runs the execution after the answer is sent. */
function startExecution(request: StartExecutionInput): { answer: { executionArn: string; startDate: number }; run?: () => void } {
  const machine = typeof request.stateMachineArn === 'string' ? machines.get(request.stateMachineArn) : undefined;
  if (!machine) throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${String(request.stateMachineArn)}'`);
  const name = typeof request.name === 'string' ? request.name : randomUUID();
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(name)) throw new ServiceError('InvalidName', `Invalid Name: '${name}'`);
  const inputText = typeof request.input === 'string' ? request.input : '{}';
  let input: unknown;
  try {
    input = JSON.parse(inputText);
  } catch {
    throw new ServiceError('InvalidExecutionInput', 'Invalid execution input: not JSON');
  }
  // As in AWS: a STANDARD execution's ARN is its name's; an EXPRESS one's adds a unique suffix.
  const arn = machine.standard
    ? `${machine.arn.replace(':stateMachine:', ':execution:')}:${name}`
    : `${machine.arn.replace(':stateMachine:', ':express:')}:${name}:${randomUUID()}`;
  const existing = machine.standard ? executions.get(arn) : undefined;
  if (existing) {
    // The documented idempotency of a STANDARD machine: the same request while it runs answers as the first.
    if (existing.running && existing.input === inputText) return { answer: { executionArn: arn, startDate: existing.startDate } };
    throw new ServiceError('ExecutionAlreadyExists', `Execution Already Exists: '${arn}'`);
  }
  const record: ExecutionRecord = { arn, input: inputText, startDate: Date.now() / 1000, running: true };
  if (machine.standard) {
    if (executions.size >= EXECUTIONS_LIMIT) executions.clear();
    executions.set(arn, record);
  }
  return {
    answer: { executionArn: arn, startDate: record.startDate },
    run: () => {
      unfinished += 1;
      void execute(machine, record, input, name).finally(() => {
        unfinished -= 1;
        if (unfinished === 0) onIdle?.();
      });
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // StartExecution's input is at most 256 KiB.
      if (size > 300_000) request.destroy(new Error('request too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/x-amz-json-1.0',
    'Content-Length': Buffer.byteLength(text),
    'x-amzn-RequestId': randomUUID(),
    ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}),
  });
  response.end(text);
}

// eslint-disable-next-line @typescript-eslint/no-misused-promises -- the body catches every error and answers it, so no rejection escapes
const server = createServer(async (request, response) => {
  try {
    const target = request.headers['x-amz-target'];
    const body = await readBody(request);
    if (request.method !== 'POST' || target !== 'AWSStepFunctions.StartExecution') {
      answer(
        response,
        400,
        { __type: 'UnknownOperationException', message: `This local Step Functions answers StartExecution only, not ${String(target)}` },
        'UnknownOperationException',
      );
      return;
    }
    const started = startExecution(JSON.parse(body) as StartExecutionInput);
    answer(response, 200, started.answer);
    // StartExecution returns once the execution is accepted; it runs after the answer has gone (or, while
    // the bench holds executions, when it releases them).
    const run = started.run;
    if (run && held) held.push(run);
    else if (run) response.once('finish', run);
  } catch (error) {
    if (error instanceof ServiceError) answer(response, 400, { __type: error.type, message: error.message }, error.type);
    else answer(response, 400, { __type: 'ValidationException', message: (error as Error).message }, 'ValidationException');
  }
});
server.keepAliveTimeout = 60_000;

function shutdown(): void {
  for (const entry of running) entry.abort();
  server.closeAllConnections();
  server.close(() => process.exit(0));
}

// The starting process owns this one: when it goes (or asks), so does the service.
process.on('disconnect', shutdown);
process.on('SIGTERM', shutdown);
process.on('message', (message: WorkflowServiceReply) => {
  if (message.type === 'stop') shutdown();
  else if (message.type === 'hold') {
    held ??= [];
    process.send!({ type: 'held' } satisfies WorkflowServiceMessage);
  } else if (message.type === 'release') {
    const queued = held ?? [];
    held = null;
    for (const run of queued) run();
    const drained = () => {
      onIdle = undefined;
      process.send!({ type: 'drained', executions: queued.length } satisfies WorkflowServiceMessage);
    };
    if (unfinished === 0) drained();
    else onIdle = drained;
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const ready: WorkflowServiceMessage = { type: 'ready', port: typeof address === 'object' && address ? address.port : 0 };
  process.send!(ready);
});

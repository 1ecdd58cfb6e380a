/**
 * A read endpoint's twin: its own DynamoDB round trips, replayed. bench/harness/server.ts records the calls one
 * warm-up request of a GET endpoint made (RECORD_CALLS_HEADER: the command, its exact input as the handler
 * passed it to the document client, in order, and which calls were in flight together) and serves TWIN_PATH,
 * a bench-only gateway route (never in shared/routes.ts, never deployed) that makes exactly those calls
 * again, with the same inputs and the same sequential / parallel grouping, through the handlers' own
 * document client and under the same bench-mode instrumentation as every handler, and answers a small fixed
 * body. Measured next to the endpoint's run as the baseline endpoint is, its p50 is the floor of a GET
 * endpoint whose calls are all reads: endpoint minus twin is then exactly the handler's own work.
 */

/** Served by the bench's gateway only (bench/harness/server.ts), as `?recording=<id>`. */
export const TWIN_PATH = '/bench/twin';

/** Request header of a warm-up request whose calls bench/harness/server.ts records under the header's value (a recording id). */
export const RECORD_CALLS_HEADER = 'x-bench-record-calls';

/** Response header of such a request: its calls as describeRecording writes them (`GetItem|Query+Query`). */
export const RECORDED_CALLS_HEADER = 'X-Bench-Recorded-Calls';

/**
 * The calls a twin replays: plain reads. Replaying a write is not the same call (a conditional write whose
 * condition now fails, a put of an item that exists), so an endpoint that wrote anything keeps its priced floor.
 */
export const TWIN_READS = ['GetItem', 'Query', 'BatchGetItem', 'Scan'] as const;

/** A command as the handlers send it: an instance of a document client (or DynamoDB client) command class. */
export interface SentCommand {
  input: object;
}
type CommandClass = new (input: never) => SentCommand;

/**
 * The DynamoDB operation a command makes (`GetItem` for a GetCommand, `Query` for a QueryCommand): the name of the
 * DynamoDB client command it wraps (a document client command's `clientCommand`), as the stats middleware of
 * bench/harness/server.ts names a call from the same client command's `commandName`.
 */
export function operationOf(command: SentCommand): string {
  const clientCommand = (command as { clientCommand?: SentCommand }).clientCommand ?? command;
  return clientCommand.constructor.name.replace(/Command$/, '');
}

export interface RecordedCall {
  /** The operation (`GetItem`, `Query`, ...; `StartExecution` for a Step Functions call, which is never replayed). */
  operation: string;
  /** The class of the command the handler sent (absent for a call that is not DynamoDB's): the twin sends a new one. */
  command?: CommandClass;
  /** The command's input as the handler gave it (unmarshalled for the document client's), copied when it was sent. */
  input: object;
}

/** A request's calls in order, in groups: the calls of a group were in flight together; a group ends when none is. */
export type CallRecording = RecordedCall[][];

/**
 * Records one request's calls as they start. A call that starts while none of the request's calls is in flight
 * opens a new group; one that starts while another is in flight joins that one's group (a handler's Promise.all).
 * A call that starts later inside a group (a page fetched while a sibling call is still out) is replayed with
 * the group, in parallel: the twin then waits less than the endpoint, never more.
 */
export class CallRecorder {
  readonly groups: CallRecording = [];
  private inFlight = 0;

  /** Records a call as it starts; returns what to call once it has ended (once). */
  start(operation: string, input: object, command?: CommandClass): () => void {
    if (this.inFlight === 0) this.groups.push([]);
    this.groups.at(-1)!.push({ operation, input: structuredClone(input), ...(command ? { command } : {}) });
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
    };
  }
}

interface SendingClient {
  send(command: never, ...rest: never[]): Promise<unknown>;
}

/**
 * Records each command sent through `client` by a request whose recorder `recorderOf()` returns (undefined: the
 * call is not recorded, and pays nothing more than that lookup): its class and its input as sent, before any
 * middleware (the document client's marshalling, the stats' ReturnConsumedCapacity) has run.
 */
export function installCallRecording(client: SendingClient, recorderOf: () => CallRecorder | undefined): void {
  const send = client.send.bind(client) as (command: SentCommand, ...rest: unknown[]) => Promise<unknown>;
  (client as unknown as { send: typeof send }).send = (command, ...rest) => {
    const recorder = recorderOf();
    if (!recorder) return send(command, ...rest);
    const end = recorder.start(operationOf(command), command.input, command.constructor as CommandClass);
    const sent = send(command, ...rest);
    sent.then(end, end);
    return sent;
  };
}

/** `GetItem|Query+BatchGetItem`: the groups in order, `+` joining the calls of one group. */
export function describeRecording(recording: CallRecording): string {
  return recording.map((group) => group.map((call) => call.operation).join('+')).join('|');
}

export function parseRecordingDescription(description: string): string[][] {
  return description === '' ? [] : description.split('|').map((group) => group.split('+'));
}

/** True when the twin can stand in for the request: it made at least one call, and only plain reads. */
export function replayable(operations: string[][]): boolean {
  const all = operations.flat();
  return all.length > 0 && all.every((operation) => (TWIN_READS as readonly string[]).includes(operation));
}

/**
 * Makes the recorded calls again, group after group, the calls of a group at once: each a new command of the class
 * the handler sent, with its recorded input unchanged, once (a BatchGetItem that comes back with UnprocessedKeys is
 * not followed up: a retry the handler made was recorded as a call of its own and is replayed as one). Only
 * replayable recordings.
 */
export async function replay(recording: CallRecording, send: (command: SentCommand) => Promise<unknown>): Promise<void> {
  const sendAgain = (call: RecordedCall) => send(new call.command!(call.input as never));
  for (const group of recording) {
    if (group.length === 1) await sendAgain(group[0]!);
    else await Promise.all(group.map(sendAgain));
  }
}

/** The twin measured next to an endpoint's run (bench/harness/run.ts: right before it and right after it, the means). */
export interface TwinFloor {
  p50: number;
  /** The twin's handler CPU (X-Handler-CPU-Ms, median; meaningful at c=1) and the bench server's per request. */
  handlerCpuMs?: number;
  serverCpuMs?: number;
  /** Mean round trips per twin request (its X-DynamoDB-Round-Trips): the endpoint's, when the replay is faithful. */
  roundTrips: number | null;
  /** Mean capacity units per twin request, and its median wall time with a call in flight: the endpoint's reads' own, when faithful. */
  capacityUnits?: number;
  dynamoMs?: number;
  /** The replayed recording (describeRecording). */
  calls: string;
}

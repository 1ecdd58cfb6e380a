// A fresh Node process as Lambda starts one: import the bundle, serve one request, report timings.
// Plain JavaScript so nothing but Node itself runs before the bundle. performance.now() counts from
// this process's start, so `totalMs` includes Node's own bootstrap.
//
// It also records the DynamoDB calls of that first request (bench/cold-start/cold-twin.ts: the function's cold twin
// replays them) and writes them, once the timings are taken, to the file named by its third argument. Every
// probe records, the baseline's, the functions' and the twins' alike, so all of them pay the same (about
// 0.3 ms: one module lookup after the import; then a few microseconds per call, a copy of its input).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serialize } from 'node:v8';

const [bundle, eventFile, callsFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'cold-start-probe',
  awsRequestId: event.requestContext.requestId,
  getRemainingTimeInMillis: () => 10_000,
};
// CPU beside wall time: on a shared machine the wall time carries other processes' load, the CPU far less.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * The calls sent through a document client (db() is one), in groups as bench/floors/twin.ts's CallRecorder makes them:
 * a call that starts while none is in flight opens a group, one that starts while another is out joins it. Each
 * entry: the command's class name (the twin sends a new one of it), the DynamoDB operation, its input as sent,
 * and the name of the error it failed with, if it did.
 * Hooked only when the bundle itself has loaded @aws-sdk/lib-dynamodb (the SDK is external, loaded from
 * node_modules as the Lambda runtime provides it): a probe never loads it for a bundle that does not.
 */
const groups = [];
function recordDocumentClientCalls() {
  const require = createRequire(pathToFileURL(bundle));
  let loaded;
  try {
    loaded = require.cache[require.resolve('@aws-sdk/lib-dynamodb')];
  } catch {
    return;
  }
  const prototype = loaded?.exports.DynamoDBDocumentClient?.prototype;
  if (!prototype) return;
  const send = prototype.send;
  let inFlight = 0;
  prototype.send = function (command, ...rest) {
    if (inFlight === 0) groups.push([]);
    const operation = (command.clientCommand ?? command).constructor.name.replace(/Command$/, '');
    const call = { command: command.constructor.name, operation, input: structuredClone(command.input), startMs: performance.now() };
    groups.at(-1).push(call);
    inFlight += 1;
    const sent = send.call(this, command, ...rest);
    // Its time, and the SDK's attempts and retry delay ($metadata): a call that waits shows where.
    const end = (metadata) => {
      call.ms = performance.now() - call.startMs;
      call.attempts = metadata?.attempts;
      call.retryDelayMs = metadata?.totalRetryDelay;
      inFlight -= 1;
    };
    // A call that failed keeps its error's name (a write's condition: the twin's may fail where the function's held).
    sent.then(
      (output) => end(output?.$metadata),
      (error) => {
        call.error = error?.name ?? 'Error';
        end(error?.$metadata);
      },
    );
    return sent;
  };
}

const bootMs = performance.now();
const bootCpuMs = cpuMs();
const module = await import(pathToFileURL(bundle).href);
const importedAt = performance.now();
const importedCpuMs = cpuMs();
recordDocumentClientCalls();
const result = await module.handler(event, context);
const servedAt = performance.now();
const servedCpuMs = cpuMs();
const timings = { bootMs, importMs: importedAt - bootMs, firstRequestMs: servedAt - importedAt, totalMs: servedAt };
const cpu = { importCpuMs: importedCpuMs - bootCpuMs, firstRequestCpuMs: servedCpuMs - importedCpuMs, totalCpuMs: servedCpuMs };
if (callsFile) writeFileSync(callsFile, serialize(groups));
const calls = groups.map((group) => group.map((call) => call.operation).join('+')).join('|');
process.stderr.write(
  `COLD-START-PROBE ${JSON.stringify({ ...timings, ...cpu, status: result?.statusCode ?? null, roundTrips: groups.flat().length, calls })}\n`,
);
// The SDK keeps its connection open; a Lambda sandbox would freeze here instead.
process.exit(0);

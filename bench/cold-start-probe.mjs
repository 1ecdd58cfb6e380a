// A fresh Node process as Lambda starts one: import the bundle, serve one request, report timings.
// Plain JavaScript so nothing but Node itself runs before the bundle. performance.now() counts from
// this process's start, so `totalMs` includes Node's own bootstrap.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, eventFile] = process.argv.slice(2);
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
const bootMs = performance.now();
const bootCpuMs = cpuMs();
const module = await import(pathToFileURL(bundle).href);
const importedAt = performance.now();
const importedCpuMs = cpuMs();
const result = await module.handler(event, context);
const servedAt = performance.now();
const servedCpuMs = cpuMs();
const timings = { bootMs, importMs: importedAt - bootMs, firstRequestMs: servedAt - importedAt, totalMs: servedAt };
const cpu = { importCpuMs: importedCpuMs - bootCpuMs, firstRequestCpuMs: servedCpuMs - importedCpuMs, totalCpuMs: servedCpuMs };
process.stderr.write(`COLD-START-PROBE ${JSON.stringify({ ...timings, ...cpu, status: result?.statusCode ?? null })}\n`);
// The SDK keeps its connection open; a Lambda sandbox would freeze here instead.
process.exit(0);

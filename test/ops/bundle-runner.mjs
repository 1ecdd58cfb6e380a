// Serves one invocation through each bundle it is given, as a Lambda sandbox would: import the
// bundle from its own directory, call its handler export once, report the result. Plain JavaScript,
// run by test/ops/bundles.test.ts in a child process with the functions' environment.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const job of jobs) {
  const context = {
    callbackWaitsForEmptyEventLoop: false,
    functionName: job.name,
    awsRequestId: job.event.requestContext?.requestId ?? job.name,
    getRemainingTimeInMillis: () => 10_000,
  };
  let report;
  try {
    const module = await import(pathToFileURL(job.bundle).href);
    const result = await module[job.exportName](job.event, context);
    // Bodies cut short: the test reads their start only, and process.exit below would cut a large
    // write to the pipe anyway (the OpenAPI document is ~200 KB).
    report = { name: job.name, result: typeof result?.body === 'string' ? { ...result, body: result.body.slice(0, 2000) } : result };
  } catch (error) {
    report = { name: job.name, error: String(error?.stack ?? error).slice(0, 1000) };
  }
  process.stdout.write(`BUNDLE-RESULT ${JSON.stringify(report)}\n`);
}
// Each bundle keeps its DynamoDB connection open; a sandbox would freeze here instead.
process.exit(0);

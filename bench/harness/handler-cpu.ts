/**
 * `npx tsx bench/harness/handler-cpu.ts <scenario-id> [requests]`: one endpoint's handler CPU per request,
 * in this process, without the gateway or the load generator beside it: the bench's own stack and
 * seed, the scenario's own requests (bench/scenarios/scenarios.ts) turned into payload v2 events, the
 * handler invoked directly one request at a time. Prints the median CPU and wall time per
 * invocation next to a bare GetItem's through the same client (what the SDK alone costs).
 *
 * For a profile of the handler alone: `node --import tsx --cpu-prof --cpu-prof-dir=bench/tmp/profiles
 * bench/harness/handler-cpu.ts users-show 2000 > /dev/null`, then `npx tsx bench/harness/profile.ts`.
 * Request logs are on, as deployed (to stdout; redirect it). Never run by `npm test`.
 */
import { randomUUID } from 'node:crypto';
import { startBenchStack } from './stack.ts';
import { median, round } from './measure.ts';
import { invokeDirectly } from './invoke.ts';

const [scenarioId, requestsArgument] = process.argv.slice(2);
if (!scenarioId) throw new Error('usage: bench/harness/handler-cpu.ts <scenario-id> [requests]');
const requests = Number(requestsArgument ?? 300);
const warmup = Math.min(50, requests);

process.env.LOG_LEVEL ??= 'info';
const stack = await startBenchStack();
try {
  const { seedWorld } = await import('./seed.ts');
  const { scenarios, createApi } = await import('../scenarios/scenarios.ts');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, table } = await import('#shared/db/client.ts');
  const { keys } = await import('#shared/db/keys.ts');
  const { sha256 } = await import('#shared/auth/secrets.ts');

  const scenario = scenarios.find((candidate) => candidate.id === scenarioId);
  if (!scenario) throw new Error(`no scenario ${scenarioId}; one of ${scenarios.map((candidate) => candidate.id).join(', ')}`);
  const world = await seedWorld(randomUUID().slice(0, 8));
  const next = await scenario.prepare({ world, api: createApi(stack.baseUrl), runId: randomUUID().slice(0, 8), count: requests + warmup, quick: false });

  const measure = async (operation: () => Promise<unknown>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await operation();
    const used = process.cpuUsage(cpu);
    return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
  };

  const statuses: Record<number, number> = {};
  const samples: { cpuMs: number; wallMs: number }[] = [];
  for (let index = 0; index < requests + warmup; index += 1) {
    const { status, cpuMs, wallMs } = await invokeDirectly(next());
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (index >= warmup) samples.push({ cpuMs, wallMs });
  }

  const key = keys.token(sha256(world.users[0]!.token));
  const floor: { cpuMs: number; wallMs: number }[] = [];
  for (let index = 0; index < requests + warmup; index += 1) {
    const sample = await measure(() => db().send(new GetCommand({ TableName: table(), Key: key })));
    if (index >= warmup) floor.push(sample);
  }
  const summary = (list: { cpuMs: number; wallMs: number }[]) =>
    `CPU ${round(median(list.map((sample) => sample.cpuMs)), 3)} ms, wall ${round(median(list.map((sample) => sample.wallMs)), 3)} ms (medians of ${list.length})`;
  process.stderr.write(`${scenario.id} (${scenario.route.method} ${scenario.route.path}): ${summary(samples)}; statuses ${JSON.stringify(statuses)}\n`);
  process.stderr.write(`bare GetItem, same client: ${summary(floor)}\n`);
} finally {
  await stack.stop();
}
process.exit(0);

/**
 * `npx tsx bench/harness/profile.ts [file.cpuprofile]`: where the bench server's CPU went, from the profile
 * `npm run bench -- --cpu-prof` leaves in bench/tmp/profiles/ (the newest one by default).
 * Prints self time by package / project file, the functions with the most self time, and the
 * functions with the most inclusive time (each sample counted once per function on its stack).
 * Idle time is left out of the percentages: they are shares of the CPU the process used.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BENCH_DIRECTORY, SCRATCH_DIRECTORY } from './stack.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PROJECT = join(BENCH_DIRECTORY, '..');

function newestProfile(): string {
  const directory = join(SCRATCH_DIRECTORY, 'profiles');
  const files = readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${directory}: run \`npm run bench -- --cpu-prof\` first`);
  return join(directory, files.sort((a, b) => statSync(join(directory, b)).mtimeMs - statSync(join(directory, a)).mtimeMs)[0]!);
}

/** `node_modules/@aws-sdk/client-dynamodb` -> `@aws-sdk/client-dynamodb`; project files by path; Node's own as `node:`. */
function area(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const path = url.replace(/^file:\/\//, '');
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packageMatch) return packageMatch[1]!;
  return relative(PROJECT, path);
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '' : ` ${area(url, functionName)}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
}

function table(title: string, entries: [string, number][], total: number, limit: number): string {
  const lines = entries
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, micros]) => `${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
  return [`\n${title}`, ...lines].join('\n');
}

const file = process.argv[2] ?? newestProfile();
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<number, number>();
profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((sum, [, micros]) => sum + micros, 0);
const total = [...self.values()].reduce((sum, micros) => sum + micros, 0) - idle;

const selfByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
for (const [id, micros] of self) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') continue;
  const key = area(node.callFrame.url, node.callFrame.functionName);
  selfByArea.set(key, (selfByArea.get(key) ?? 0) + micros);
  selfByFunction.set(label(node), (selfByFunction.get(label(node)) ?? 0) + micros);
}

// Inclusive: every function on a sample's stack gets the sample's time once.
const inclusive = new Map<string, number>();
const stackLabels = new Map<number, Set<string>>();
function labelsOnStack(id: number): Set<string> {
  let labels = stackLabels.get(id);
  if (labels) return labels;
  const above = parent.has(id) ? labelsOnStack(parent.get(id)!) : new Set<string>();
  labels = new Set(above).add(label(byId.get(id)!));
  stackLabels.set(id, labels);
  return labels;
}
for (const [id, micros] of self) {
  if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
  for (const name of labelsOnStack(id)) inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
}

const limit = Number(process.env.PROFILE_TOP ?? 40);
process.stdout.write(`${file}\nCPU used (idle excluded): ${(total / 1000).toFixed(0)} ms; idle ${(idle / 1000).toFixed(0)} ms\n`);
process.stdout.write(table('Self time by package or project file', [...selfByArea], total, limit));
process.stdout.write(table('Self time by function', [...selfByFunction], total, limit));
process.stdout.write(`${table('Inclusive time by function', [...inclusive], total, limit)}\n`);

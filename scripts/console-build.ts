/**
 * `npm run console:build`: the merchant console (console/, docs/console.md) -> console/dist, with Vite and the
 * console's own vite.config.ts. `ensureConsoleBuilt` builds only when a source is newer than the last build:
 * `npm start`, the test setup and the CDK synth call it, so a fresh clone needs no separate step.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CONSOLE_ROOT = join(root, 'console');
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');
const BUILT_MARKER = join(CONSOLE_DIST, 'index.html');
/** What the build reads besides console/ itself: the typed client and its generated types. */
const INPUTS = [CONSOLE_ROOT, join(root, 'clients', 'typescript')];

function newestInput(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (path === CONSOLE_ROOT && (entry === 'dist' || entry === 'node_modules')) continue;
    newest = Math.max(newest, newestInput(join(path, entry)));
  }
  return newest;
}

export function consoleIsStale(): boolean {
  if (!existsSync(BUILT_MARKER)) return true;
  const built = statSync(BUILT_MARKER).mtimeMs;
  return INPUTS.some((input) => newestInput(input) > built);
}

export async function buildConsole(): Promise<void> {
  const { build } = await import('vite');
  // Always React's production build: vitest runs with NODE_ENV=test, and Vite and its React plugin follow NODE_ENV
  // (the JSX runtime and React's own build must agree, so NODE_ENV itself is set for the build, not a define).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: CONSOLE_ROOT, configFile: join(CONSOLE_ROOT, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Builds console/dist when it is missing or older than its sources; true when it built. */
export async function ensureConsoleBuilt(): Promise<boolean> {
  if (!consoleIsStale()) return false;
  await buildConsole();
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildConsole();
  console.log(`console built: ${CONSOLE_DIST}`);
}

/**
 * Cold start of every function in shared/routes.ts (+ the fallback): the minified bundle, built
 * with the SAME esbuild settings the CDK stack uses (API_FUNCTION_BUNDLING), and the time a fresh
 * Node process takes to import it and serve one request, against a baseline handler doing one
 * GetItem with the same client. Runs are interleaved (every bundle once per round) so machine
 * noise falls on all of them alike.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { handlerEntry, PROJECT_ROOT } from '../../infra/constructs/api-function.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';
import { issueToken } from '#shared/auth/tokens.ts';
import { FALLBACK_HANDLER, MERCHANT_PERMISSIONS, routes, USER_PERMISSIONS, type CredentialKind, type Route } from '#shared/routes.ts';
import { median, round } from '../harness/measure.ts';
import { routeEvent, type RouteEvent } from '../harness/route-event.ts';
import { SCRATCH_DIRECTORY } from '../harness/stack.ts';
import { failedOnlyInTwin, isTwinRound, readProbeRecording, scratchTableFor, twinWaits, type ProbeRecording } from './cold-twin.ts';
import type { World } from '../harness/seed.ts';
import { oneStepOrderBody, proposedOrderBody, publishedCheckBody } from '../scenarios/scenarios.ts';

export const BASELINE = 'baseline (one GetItem)';

/** What Lambda sets in a sandbox, so the functions' utilities (Powertools Metrics) behave as deployed. */
const LAMBDA_ENVIRONMENT = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_LAMBDA_FUNCTION_NAME: 'cold-start-probe',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
  AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
  AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
  _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
};
/**
 * Lambda's NODE_OPTIONS for the API functions (infra/constructs/api-function.ts sets none: without
 * `--enable-source-maps` a cold start does not parse the bundle's source map, ~10-20 ms of CPU for the
 * largest bundles; docs/operations.md says how to map a logged stack trace).
 */
const LAMBDA_NODE_OPTIONS: string[] = [];

/**
 * `--functions=a,b` (with `--cold-start`): only those functions (handler names), beside the baseline; for
 * measuring one function's change before and after, several runs, without the others' 2 minutes. Its rows are not the figures of record (the lead's full run is).
 */
const SELECTED_FUNCTIONS = process.argv
  .find((argument) => argument.startsWith('--functions='))
  ?.slice('--functions='.length)
  .split(',')
  .filter(Boolean);
/**
 * `--sdk-comparison` (with `--cold-start`): the AWS SDK left to the runtime (as deployed) against the SDK bundled
 * with each function (minified, tree-shaken), for the baseline and SDK_COMPARISON_FUNCTIONS (or `--functions=`):
 * each function's two bundles probed one right after the other in every round, no twins.
 */
const SDK_COMPARISON = process.argv.includes('--sdk-comparison');
const SDK_COMPARISON_FUNCTIONS = ['users-show', 'orders-create', 'completed-orders-create', 'locations-show'];
const SDK_BUNDLED = ' (AWS SDK bundled)';
const COMPARED_FUNCTIONS = SELECTED_FUNCTIONS ?? (SDK_COMPARISON ? SDK_COMPARISON_FUNCTIONS : undefined);
/**
 * `--cpu-prof` (set by bench/harness/run.ts as BENCH_CPU_PROFILE_DIRECTORY): each probe runs under `node --cpu-prof`,
 * its profile in bench/tmp/profiles/cold-start/, and the bundles are built unminified so its functions keep
 * their names (timings of such a run are the profiler's, not figures).
 */
const PROBE_PROFILE_DIRECTORY = process.env.BENCH_CPU_PROFILE_DIRECTORY ? join(process.env.BENCH_CPU_PROFILE_DIRECTORY, 'cold-start') : undefined;

export interface ColdStartRow {
  handler: string;
  route: string;
  available: boolean;
  note?: string;
  bundleBytes?: number;
  /** The AWS SDK's part of bundleBytes (0 when the SDK is left to the runtime); the size target does not count it. */
  sdkBytes?: number;
  /** Median over the runs, ms since process start until the first response was returned. */
  totalMs?: number;
  /** Median import time of the bundle (module init). */
  importMs?: number;
  /** Median time of the first request. */
  firstRequestMs?: number;
  /** Medians of the probe process's CPU (user + system): its import, its first request, since its start (less load-sensitive than the times). */
  importCpuMs?: number;
  firstRequestCpuMs?: number;
  totalCpuMs?: number;
  /**
   * An SDK-bundled variant (`--sdk-comparison`): the median over the rounds of its figure minus its pair's (the
   * same function with the SDK external, probed right before it in the same round); negative: bundled is faster.
   */
  sdkBundledDeltaMs?: { import: number; firstRequest: number; total: number; totalCpu: number };
  /** The three biggest contributors to the bundle, KiB by package. */
  largestInputs?: string;
  status?: number | null;
  runs?: number;
  /** The DynamoDB calls of the probe's first request (calls sent through the document client; retries inside the SDK not counted), median, and the first probe's calls (`GetItem|Query+Query`). */
  roundTrips?: number;
  calls?: string;
  /**
   * The function's cold twin (bench/cold-start/cold-twin.ts), probed right after the function in every TWIN_ROUND_EVERY-th
   * round: its median total ms; the median over those rounds of the function's total / its twin's (and of their
   * total CPU); the twin's round trips (median: the function's when the replay is faithful); how many rounds.
   */
  twinTotalMs?: number;
  twinRatio?: number;
  twinCpuRatio?: number;
  twinRoundTrips?: number;
  twinRuns?: number;
}

/** The functions' own esbuild options (infra/esbuild-options.ts), plus the metafile the bench reads. */
export function esbuildOptions(entries: Record<string, string>, outdir: string): BuildOptions {
  // Only read by the bench (what makes a bundle big); it does not change the output.
  return { ...apiFunctionEsbuildOptions(entries, outdir), metafile: true, ...(PROBE_PROFILE_DIRECTORY ? { minify: false } : {}) };
}

/** The biggest contributors to a bundle, by package (or `project` for this repository's own code). */
function largestInputs(inputs: Record<string, { bytesInOutput: number }>): string {
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match ? match[1]! : 'project';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)}`)
    .join(', ');
}

/**
 * Valid bodies for write probes, as the function's bench scenario sends them (bench/scenarios/scenarios.ts), so its first
 * request runs the domain to the commit rather than stopping at 422 at validation (**a change of method**,
 * 2026-11-23: before, every write sent `{}`). The token is the world's first user's (or its merchant's, by the
 * route's credential): a function listed here must succeed with it on every round. Writes not listed still send
 * an empty body.
 */
const PROBE_BODIES: Record<string, (world: World) => unknown> = {
  // The second user buys $10 for the first (the bench app's charge limits are lifted by the seed; 10 rounds stay far below them).
  // The buyer is the second user (PROBE_TOKEN_USERS): payment-method-delete, probed earlier in each round with the
  // first user's token, removes the first user's card, after which every probe of this order answered 422.
  'gift-card-value-orders-create': (world) => ({
    gift_card_value_order: { merchant_id: world.merchantId, recipient_email: world.users[0]!.email, value_amount: 1_000 },
  }),
  // The POS's writes for the second user (the first user's QR code is replaced by payment-token-rotations-create's probe each round).
  'proposed-orders-create': (world) => proposedOrderBody(world, world.users[1]!),
  'orders-create': (world) => oneStepOrderBody(world, world.users[1]!),
  'checks-create': (world) => publishedCheckBody(world),
};

/** Functions whose user token is another user's than the first's (an index into the world's users; see PROBE_BODIES). */
const PROBE_TOKEN_USERS: Record<string, number> = { 'gift-card-value-orders-create': 1 };

interface Target {
  handler: string;
  route: string;
  entry: string;
  event: ProbeEvent;
  /** The kind of token each probe of this function presents (a fresh one per probe); none for anonymous routes. */
  token?: TokenKind;
  /** Files the function reads at run time (the route's `bundledFiles`), copied beside the bundles as the stack copies them beside index.mjs. */
  bundledFiles?: readonly string[];
  /** An SDK-bundled variant (sdkBundledOptions): no cold twin, its calls are not recorded. */
  sdkBundled?: boolean;
  /** The request body each probe sends (PROBE_BODIES), JSON-encoded; writes without one send `{}`. */
  body?: (world: World) => unknown;
  /** Its route sends email (shared/routes.ts `sendsEmail`): the probes then get a local SES endpoint. */
  sendsEmail?: boolean;
}

/**
 * The AWS SDK bundled with the function instead of left to the runtime: its ES modules (mainFields) minified
 * and tree-shaken with the rest, with Node's own `node:http` (no alias): the SDK's credential chain imports its
 * default export, which the status table cannot stand in for. The probe cannot record such a bundle's DynamoDB
 * calls (the SDK is not in node_modules' module cache), so these rows have no round trips and no twin.
 */
function sdkBundledOptions(options: BuildOptions): BuildOptions {
  const { 'node:http': _nodeHttp, ...alias } = options.alias ?? {};
  return { ...options, alias, external: (options.external ?? []).filter((module) => !module.startsWith('@aws-sdk/')) };
}

/** Bytes of a bundle that are the AWS SDK's (its packages and the Smithy and crypto ones it is built from). */
export function sdkBytes(inputs: Record<string, { bytesInOutput: number }>): number {
  return Object.entries(inputs)
    .filter(([path]) => /node_modules\/(@aws-sdk|@smithy|@aws-crypto)\//.test(path))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
}

type TokenKind = 'user' | 'merchant' | 'app';

/**
 * The token a route's first request presents: one of the kind its credential names (shared/routes.ts), so
 * that request runs the route's own path past authorization rather than stopping at 401. `any` takes a user
 * token, except where the route's main path is another kind's (ANY_CREDENTIAL_PATHS).
 */
const TOKEN_FOR_CREDENTIAL: Record<CredentialKind, TokenKind | undefined> = {
  none: undefined,
  user: 'user',
  'user-optional': 'user',
  'user-unlimited': 'user',
  any: 'user',
  merchant: 'merchant',
  'merchant-or-app': 'merchant',
  app: 'app',
  'app-optional': 'app',
};
/** Routes taking `any` token whose main path is not a user's: the POS finalising a remote check (C# SDK FinalizeRemoteCheck, a money write). */
const ANY_CREDENTIAL_PATHS: Record<string, TokenKind> = { 'checks-orders-create': 'merchant' };

function tokenKindFor(route: Route | undefined): TokenKind | undefined {
  if (!route) return undefined;
  return route.credential === 'any' ? (ANY_CREDENTIAL_PATHS[route.handler] ?? 'user') : TOKEN_FOR_CREDENTIAL[route.credential];
}

/**
 * A token nobody else has presented, of the kind asked for, for the world's first user, its merchant or its app
 * (the permissions the bench's own tokens carry). One per probe: some first requests end a token
 * (DELETE /v15/access_tokens revokes the one it is called with), and with one shared token every function
 * probed after that one answered 401 without running its own path (63 of 129 rows in the run of 2026-11-23).
 */
function freshToken(kind: TokenKind, world: World, userIndex = 0): Promise<string> {
  if (kind === 'user')
    return issueToken({ subject: 'user', userId: world.users[userIndex]!.userId, appId: world.appId, permissions: USER_PERMISSIONS, unlimited: true });
  if (kind === 'merchant') return issueToken({ subject: 'merchant', merchantId: world.merchantId, appId: world.appId, permissions: MERCHANT_PERMISSIONS });
  return issueToken({ subject: 'app', appId: world.appId });
}

type ProbeEvent = RouteEvent;

/** The route's request (no Authorization header: roundEvent adds the probe's own). */
function eventFor(route: Route | undefined): ProbeEvent {
  return routeEvent(route, {
    host: 'cold-start.local',
    userAgent: 'bench',
    pathValue: (name) => (name === 'uuid' ? 'bench0000000000000000000000000000' : '1'),
  });
}

/** The round's request: the probe's own token, and its body when the function has one (PROBE_BODIES). */
function roundEvent(event: ProbeEvent, token: string | undefined, body: unknown): ProbeEvent {
  const withToken = token === undefined ? event : { ...event, headers: { ...event.headers, authorization: `token ${token}` } };
  return body === undefined ? withToken : { ...withToken, body: JSON.stringify(body) };
}

interface ProbeResult {
  importMs: number;
  firstRequestMs: number;
  totalMs: number;
  importCpuMs: number;
  firstRequestCpuMs: number;
  totalCpuMs: number;
  status: number | null;
  /** The DynamoDB calls the probe process saw its first request send (bench/cold-start/cold-start-probe.mjs). */
  roundTrips: number;
  calls: string;
}

/** Runs one probe process; `callsFile` receives the DynamoDB calls of its first request (readProbeRecording). */
function probe(bundle: string, eventFile: string, callsFile: string, environment: Record<string, string>): Promise<ProbeResult> {
  const probeScript = fileURLToPath(new URL('./cold-start-probe.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const profiling = PROBE_PROFILE_DIRECTORY
      ? ['--cpu-prof', `--cpu-prof-dir=${PROBE_PROFILE_DIRECTORY}`, `--cpu-prof-name=${basename(bundle, '.mjs')}-${Date.now()}.cpuprofile`]
      : [];
    const child = spawn(process.execPath, [...LAMBDA_NODE_OPTIONS, ...profiling, probeScript, bundle, eventFile, callsFile], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...LAMBDA_ENVIRONMENT, ...environment, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = stderr.split('\n').find((candidate) => candidate.startsWith('COLD-START-PROBE '));
      if (!line) return reject(new Error(`probe exited with ${code}: ${stderr.slice(-400)}`));
      resolve(JSON.parse(line.slice('COLD-START-PROBE '.length)) as ProbeResult);
    });
  });
}

export async function measureColdStarts(options: {
  world: World;
  runs: number;
  environment: Record<string, string>;
  progress: (message: string) => void;
}): Promise<ColdStartRow[]> {
  const bundleDirectory = join(SCRATCH_DIRECTORY, 'bundles');
  rmSync(bundleDirectory, { recursive: true, force: true });
  mkdirSync(bundleDirectory, { recursive: true });

  const seen = new Set<string>();
  const targets: Target[] = [];
  const rows: ColdStartRow[] = [];
  const candidates: { handler: string; route?: Route }[] = [...routes.map((route) => ({ handler: route.handler, route })), { handler: FALLBACK_HANDLER }];
  for (const { handler, route } of candidates) {
    if (seen.has(handler) || (COMPARED_FUNCTIONS && !COMPARED_FUNCTIONS.includes(handler))) continue;
    seen.add(handler);
    const routeLabel = route ? `${route.method} ${route.path}` : '$default (404/405)';
    const entry = handlerEntry(handler);
    if (!existsSync(entry)) {
      rows.push({ handler, route: routeLabel, available: false, note: `functions/${handler}.ts does not exist` });
      continue;
    }
    const body = PROBE_BODIES[handler];
    targets.push({
      handler,
      route: routeLabel,
      entry,
      event: eventFor(route),
      token: tokenKindFor(route),
      ...(route?.bundledFiles ? { bundledFiles: route.bundledFiles } : {}),
      ...(body ? { body, sendsEmail: route?.sendsEmail === true } : {}),
    });
  }
  targets.unshift({
    handler: BASELINE,
    route: '-',
    entry: fileURLToPath(new URL('../harness/baseline-handler.ts', import.meta.url)),
    event: eventFor(undefined),
  });
  // Each SDK-bundled variant right after its function: the pair is probed back to back in every round.
  if (SDK_COMPARISON)
    targets.splice(0, targets.length, ...targets.flatMap((target) => [target, { ...target, handler: `${target.handler}${SDK_BUNDLED}`, sdkBundled: true }]));

  const built: (Target & { bundle: string; eventFile: string; callsFile: string; bytes: number; sdk: number; largest: string })[] = [];
  // One build per function, as the stack bundles it.
  // Settled one by one: a bundle that fails is its own row's note, never every row's (a full run at 6c2f533
  // lost all 129 rows to one bundle's failure).
  const builds = await Promise.allSettled(
    targets.map(async (target, index) => {
      const functionOptions = esbuildOptions({ [`function-${index}`]: target.entry }, bundleDirectory);
      return (await build(target.sdkBundled ? sdkBundledOptions(functionOptions) : functionOptions)).metafile!;
    }),
  );
  for (const [index, target] of targets.entries()) {
    const outcome = builds[index]!;
    if (outcome.status === 'rejected') {
      // esbuild's message starts "Build failed with 1 error:" and names the error on the next lines: keep them.
      const reason = (outcome.reason as Error).message.split('\n').slice(0, 4).join(' ').replace(/\s+/g, ' ').slice(0, 400);
      rows.push({ handler: target.handler, route: target.route, available: false, note: `bundling failed: ${reason}` });
      continue;
    }
    const bundle = join(bundleDirectory, `function-${index}.mjs`);
    // Without them openapi-show's first request answered 500 (shared/http/bundled-files.ts found no docs/openapi.json).
    for (const file of target.bundledFiles ?? []) copyFileSync(join(PROJECT_ROOT, file), join(bundleDirectory, basename(file)));
    const eventFile = join(bundleDirectory, `function-${index}.event.json`);
    const callsFile = join(bundleDirectory, `function-${index}.calls.bin`);
    const output = Object.entries(outcome.value.outputs).find(([path]) => path.endsWith(`function-${index}.mjs`))?.[1];
    built.push({
      ...target,
      bundle,
      eventFile,
      callsFile,
      bytes: statSync(bundle).size,
      sdk: output ? sdkBytes(output.inputs) : 0,
      largest: output ? largestInputs(output.inputs) : '',
    });
  }

  // The cold twins (bench/cold-start/cold-twin.ts): one bundle, built as the baseline's, for the baseline and every function
  // Each function's twin reads its own replay file, named in its event. Not for `--sdk-comparison` (no recordings).
  const twins = SDK_COMPARISON ? noTwins('not measured with --sdk-comparison') : await prepareTwins(built, bundleDirectory, options.environment);
  options.progress(
    `bundled ${built.length} functions; ${options.runs} cold starts each, interleaved` +
      (twins.bundle ? `; their cold twins in ${twins.rounds(options.runs)} of the rounds, each right after its function` : `; no cold twins: ${twins.note}`),
  );

  // A probe whose valid body sends an email sends it as deployed, to SES: here the local emulator the tests use.
  const ses = built.some((target) => target.sendsEmail) ? await import('../../scripts/local/ses.ts') : undefined;
  const mail = ses ? await ses.startSesLocal() : undefined;
  const environment = ses && mail ? { ...options.environment, SES_ENDPOINT: mail.endpoint, MAIL_FROM: ses.LOCAL_MAIL_FROM } : options.environment;

  const samples = new Map<string, ProbeResult[]>();
  const failures = new Map<string, string>();
  /** Each function's latest recording (the keys its writes touch: copyPreState), and its rounds with a twin. */
  const recordings = new Map<string, ProbeRecording>();
  const pairs = new Map<string, TwinRound[]>();
  const twinFailures = new Map<string, string>();
  for (let run = 0; run < options.runs; run++) {
    // The round's tokens are minted before its first probe: minted right before each probe, DynamoDB Local's
    // work on the new item overlapped that probe's import (the baseline, which presents none, never paid it).
    for (const target of built) {
      if (failures.has(target.handler)) continue;
      try {
        const token = target.token ? await freshToken(target.token, options.world, PROBE_TOKEN_USERS[target.handler]) : undefined;
        writeFileSync(target.eventFile, JSON.stringify(roundEvent(target.event, token, target.body?.(options.world))));
      } catch (error) {
        failures.set(target.handler, `token: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
      }
    }
    const twinRound = twins.bundle !== undefined && isTwinRound(run, options.runs);
    // Likewise the scratch copies of the items the twins' writes touch, before the round's first probe.
    if (twinRound) await twins.copyPreStates(recordings);
    for (const target of built) {
      if (failures.has(target.handler)) continue;
      let result: ProbeResult;
      try {
        result = await probe(target.bundle, target.eventFile, target.callsFile, environment);
        samples.set(target.handler, [...(samples.get(target.handler) ?? []), result]);
      } catch (error) {
        failures.set(target.handler, (error as Error).message.split('\n')[0]!.slice(0, 200));
        continue;
      }
      if (target.sdkBundled) continue;
      const recording = readProbeRecording(target.callsFile);
      recordings.set(target.handler, recording);
      if (!twinRound || twinFailures.has(target.handler)) continue;
      try {
        const { twin, twinRecording } = await twins.probe(target, recording, (bundle, eventFile, callsFile) =>
          probe(bundle, eventFile, callsFile, environment),
        );
        pairs.set(target.handler, [
          ...(pairs.get(target.handler) ?? []),
          { probe: result, twin, failedOnlyInTwin: failedOnlyInTwin(recording, twinRecording), waitedInTwin: twinWaits(recording, twinRecording) },
        ]);
      } catch (error) {
        twinFailures.set(target.handler, `cold twin: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
      }
    }
    options.progress(`cold starts: round ${run + 1}/${options.runs}${twinRound ? ' (with twins)' : ''}`);
  }
  await mail?.stop();
  twins.stop();

  for (const target of built) {
    const list = samples.get(target.handler) ?? [];
    if (list.length === 0) {
      rows.push({
        handler: target.handler,
        route: target.route,
        available: false,
        bundleBytes: target.bytes,
        largestInputs: target.largest,
        note: failures.get(target.handler) ?? 'no runs',
      });
      continue;
    }
    const totalMs = median(list.map((sample) => sample.totalMs));
    const importMs = median(list.map((sample) => sample.importMs));
    const firstRequestMs = median(list.map((sample) => sample.firstRequestMs));
    const twin = twinFigures(pairs.get(target.handler) ?? []);
    const external = target.handler.endsWith(SDK_BUNDLED) ? samples.get(target.handler.slice(0, -SDK_BUNDLED.length)) : undefined;
    const delta = (figure: 'importMs' | 'firstRequestMs' | 'totalMs' | 'totalCpuMs') =>
      round(median(list.map((sample, run) => sample[figure] - external![run]![figure])), 1);
    const notes = [failures.get(target.handler), twinFailures.get(target.handler), twin.note].filter(Boolean);
    rows.push({
      handler: target.handler,
      route: target.route,
      available: true,
      bundleBytes: target.bytes,
      sdkBytes: target.sdk,
      largestInputs: target.largest,
      ...(external?.length === list.length
        ? { sdkBundledDeltaMs: { import: delta('importMs'), firstRequest: delta('firstRequestMs'), total: delta('totalMs'), totalCpu: delta('totalCpuMs') } }
        : {}),
      totalMs: round(totalMs, 1),
      importMs: round(importMs, 1),
      firstRequestMs: round(firstRequestMs, 1),
      importCpuMs: round(median(list.map((sample) => sample.importCpuMs)), 1),
      firstRequestCpuMs: round(median(list.map((sample) => sample.firstRequestCpuMs)), 1),
      totalCpuMs: round(median(list.map((sample) => sample.totalCpuMs)), 1),
      status: list[0]!.status,
      runs: list.length,
      roundTrips: median(list.map((sample) => sample.roundTrips)),
      calls: list[0]!.calls,
      ...twin.figures,
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    });
  }
  const order = new Map(targets.map((target, index) => [target.handler, index]));
  return rows.sort((a, b) => (order.get(a.handler) ?? 999) - (order.get(b.handler) ?? 999));
}

/** A round's function probe and its twin's, with the errors of the twin's calls whose counterpart in the function succeeded. */
interface TwinRound {
  probe: Pick<ProbeResult, 'totalMs' | 'totalCpuMs' | 'roundTrips'>;
  twin: Pick<ProbeResult, 'totalMs' | 'totalCpuMs' | 'roundTrips' | 'status'>;
  failedOnlyInTwin: string[];
  /** The twin's calls that waited where the function's counterpart did not (twinWaits): SDK retries, or far slower. */
  waitedInTwin?: string[];
}

/**
 * A row's twin figures from its rounds with a twin: the ratios are taken round by round (the function and its
 * twin probed one after the other, so a burst of load falls on both) and their median reported.
 */
export function twinFigures(rounds: TwinRound[]): {
  figures: Pick<ColdStartRow, 'twinTotalMs' | 'twinRatio' | 'twinCpuRatio' | 'twinRoundTrips' | 'twinRuns'>;
  note?: string;
} {
  if (rounds.length === 0) return { figures: {} };
  const differing = rounds.filter((pair) => pair.twin.roundTrips !== pair.probe.roundTrips).length;
  const failed = rounds.filter((pair) => pair.twin.status !== 200).length;
  const otherState = rounds.filter((pair) => pair.failedOnlyInTwin.length > 0);
  const waited = rounds.filter((pair) => (pair.waitedInTwin ?? []).length > 0);
  const notes = [
    differing > 0 ? `the twin's round trips differ from the function's in ${differing} of ${rounds.length} rounds` : undefined,
    otherState.length > 0
      ? `in ${otherState.length} of ${rounds.length} rounds a twin's call failed where the function's succeeded (${[...new Set(otherState.flatMap((pair) => pair.failedOnlyInTwin))].join(', ')})`
      : undefined,
    waited.length > 0
      ? `in ${waited.length} of ${rounds.length} rounds a twin's call waited where the function's did not (${[...new Set(waited.flatMap((pair) => pair.waitedInTwin!))].slice(0, 3).join(', ')})`
      : undefined,
    failed > 0 ? `the twin answered ${rounds.find((pair) => pair.twin.status !== 200)!.twin.status} in ${failed} of ${rounds.length} rounds` : undefined,
  ].filter(Boolean);
  return {
    figures: {
      twinTotalMs: round(median(rounds.map((pair) => pair.twin.totalMs)), 1),
      twinRatio: round(median(rounds.map((pair) => pair.probe.totalMs / pair.twin.totalMs)), 2),
      twinCpuRatio: round(median(rounds.map((pair) => pair.probe.totalCpuMs / pair.twin.totalCpuMs)), 2),
      twinRoundTrips: median(rounds.map((pair) => pair.twin.roundTrips)),
      twinRuns: rounds.length,
    },
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

interface Twins {
  /** The twin bundle, unless it could not be built (`note` says why). */
  bundle?: string;
  note?: string;
  rounds(runs: number): number;
  /** Copies into the scratch table the items each function's latest recorded writes touch, as they are now. */
  copyPreStates(recordings: Map<string, ProbeRecording>): Promise<void>;
  /** Probes the function's twin with the function's recording of this round, its writes sent to the scratch table. */
  probe(
    target: { handler: string; callsFile: string },
    recording: ProbeRecording,
    run: (bundle: string, eventFile: string, callsFile: string) => Promise<ProbeResult>,
  ): Promise<{ twin: ProbeResult; twinRecording: ProbeRecording }>;
  stop(): void;
}

function noTwins(note: string): Twins {
  return { note, rounds: () => 0, copyPreStates: async () => {}, probe: () => Promise.reject(new Error(note)), stop: () => {} };
}

/** The twin bundle (the baseline's bundling, bench/cold-start/cold-twin-handler.ts), its scratch table, and its files per function. */
async function prepareTwins(functions: { handler: string; callsFile: string }[], bundleDirectory: string, environment: Record<string, string>): Promise<Twins> {
  const rounds = (runs: number) => Array.from({ length: runs }, (_, run) => run).filter((run) => isTwinRound(run, runs)).length;
  const entry = fileURLToPath(new URL('./cold-twin-handler.ts', import.meta.url));
  try {
    await build(esbuildOptions({ 'cold-twin': entry }, bundleDirectory));
  } catch (error) {
    return noTwins(`the twin bundle failed: ${(error as Error).message.split('\n').slice(0, 4).join(' ').slice(0, 300)}`);
  }
  const bundle = join(bundleDirectory, 'cold-twin.mjs');
  const { localClient } = await import('../../scripts/local/dynamodb-local.ts');
  const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
  const client = localClient(environment.DYNAMODB_ENDPOINT!);
  const scratch = await scratchTableFor(client, DynamoDBDocumentClient.from(client), environment.TABLE_NAME!);
  const files = new Map(
    functions.map((target) => {
      const stem = target.callsFile.replace(/\.calls\.bin$/, '');
      return [target.handler, { replay: `${stem}.twin-replay.bin`, event: `${stem}.twin-event.json`, calls: `${stem}.twin-calls.bin` }];
    }),
  );
  for (const { replay, event } of files.values()) writeFileSync(event, JSON.stringify({ ...eventFor(undefined), recording: replay }));
  return {
    bundle,
    rounds,
    async copyPreStates(recordings) {
      for (const recording of recordings.values()) await scratch.copyPreStateOf(recording);
    },
    async probe(target, recording, run) {
      const { replay, event, calls } = files.get(target.handler)!;
      scratch.writeReplay(recording, replay);
      const twin = await run(bundle, event, calls);
      return { twin, twinRecording: readProbeRecording(calls) };
    },
    stop: () => client.destroy(),
  };
}

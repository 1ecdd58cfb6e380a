/**
 * Nothing that serves only the tests, the bench or `npm start` ships in a Lambda (issue 35, point 4): every
 * function the stack deploys is bundled as its NodejsFunction bundles it (infra/esbuild-options.ts mirrors
 * API_FUNCTION_BUNDLING, with the function's own constants), and esbuild's metafile names the modules each
 * bundle holds. The list of test-only modules is TEST_ONLY_MODULES (infra/constructs/api-function.ts), plus
 * every devDependency of package.json.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction, handlerEntry, PROJECT_ROOT, TEST_ONLY_MODULES } from '../../infra/constructs/api-function.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';
import { LoyaltyApiStack } from '../../infra/stack.ts';

const DEV_DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies,
);
const TEST_ONLY_PACKAGES = new Set<string>([...TEST_ONLY_MODULES.packages, ...DEV_DEPENDENCIES]);

/** The package a bundled file belongs to (node_modules may be a link elsewhere: esbuild names the real path). */
function packageOf(input: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/** What a bundle carries (its output's inputs: a module parsed but shaken out entirely is not in it) that serves only tests, the bench or `npm start`. */
function testOnlyInputs(metafile: Metafile): string[] {
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
  return inputs.filter((input) => {
    const name = packageOf(input);
    if (name !== undefined) return TEST_ONLY_PACKAGES.has(name);
    return TEST_ONLY_MODULES.project.some((module) => (module.endsWith('/') ? input.startsWith(module) : input === module));
  });
}

let outdir: string;
/** The stack's functions: handler name -> whether it is an ApiFunction (bundled with API_FUNCTION_BUNDLING). */
let deployed: Map<string, boolean>;
const metafiles = new Map<string, Metafile>();

async function bundle(handlerName: string, change: (options: BuildOptions) => BuildOptions = (options) => options): Promise<Metafile> {
  const options = apiFunctionEsbuildOptions({ [`${handlerName}/index`]: handlerEntry(handlerName) }, outdir);
  return (await build({ ...change(options), metafile: true, write: false })).metafile;
}

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'loyalty-deployed-bundles-'));
  // The functions as the stack declares them (no bundling at synth: the builds below are the bundles).
  const stack = new LoyaltyApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'LoyaltyApi');
  const functions = stack.node.findAll().filter((construct): construct is NodejsFunction => construct instanceof NodejsFunction);
  deployed = new Map(functions.map((fn) => [fn instanceof ApiFunction ? fn.handlerName : fn.node.path, fn instanceof ApiFunction]));
  // Each function's own build (its route row is a constant of its own), all at once: esbuild runs them side by side.
  await Promise.all([...deployed].filter(([, api]) => api).map(async ([name]) => metafiles.set(name, await bundle(name))));
}, 600_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('deployed bundles hold no test-only module', () => {
  it('every function of the stack is an ApiFunction, so it is bundled with API_FUNCTION_BUNDLING', () => {
    expect([...deployed].filter(([, api]) => !api).map(([name]) => name)).toEqual([]);
    // The routes' functions, the fallback, the two workflows' tasks and the webhook path's two.
    expect(metafiles.size).toBeGreaterThan(100);
  });

  it('no bundle includes a TEST_ONLY_MODULES entry or a devDependency', () => {
    const offenders = [...metafiles].flatMap(([name, metafile]) => testOnlyInputs(metafile).map((input) => `${name}: ${input}`));
    expect(offenders).toEqual([]);
  });

  // Each constant is what keeps its module out: without it, the function that reaches the module's only import bundles it.
  it.each([
    ['DYNAMODB_FAULTS', 'users-show', ['shared/db/faults.ts']],
    ['GEOCODER', 'user-addresses-create', ['shared/geocoding/sandbox.ts', 'zipcodes']],
    ['PUSH_SENDER', 'events-stream', ['shared/push/sandbox.ts']],
  ] as const)('without the process.env.%s constant, %s would bundle its test-only module', async (variable, handlerName, modules) => {
    expect(deployed.get(handlerName)).toBe(true);
    const withoutConstant = await bundle(handlerName, (options) => {
      const { [`process.env.${variable}`]: _dropped, ...define } = options.define ?? {};
      return { ...options, define };
    });
    const found = testOnlyInputs(withoutConstant);
    for (const module of modules)
      expect(
        found.some((input) => input === module || packageOf(input) === module),
        `${module} in ${found.join(', ')}`,
      ).toBe(true);
  });
});

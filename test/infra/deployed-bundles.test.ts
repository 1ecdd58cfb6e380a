/**
 * Nothing that serves only the tests, the bench or `npm start` ships in a Lambda (issue 35, point 4): every
 * function the stack deploys is bundled as its NodejsFunction bundles it (infra/esbuild-options.ts mirrors
 * API_FUNCTION_BUNDLING, with the function's own constants), and esbuild's metafile names the modules each
 * bundle holds. The list of test-only modules is TEST_ONLY_MODULES (infra/constructs/api-function.ts), plus
 * every devDependency of package.json. Nor does what only the OpenAPI document runs (DOCUMENT_ONLY_MODULES beside it):
 * no function validates its answers, so none should carry their schemas.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction, DOCUMENT_ONLY_MODULES, handlerEntry, PROJECT_ROOT, TEST_ONLY_MODULES } from '../../infra/constructs/api-function.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';
import { IMAGE_PROCESSING_EXTERNAL_MODULES, IMAGE_PROCESSING_HANDLER } from '../../infra/constructs/image-processing.ts';
import { LoyaltyApiStack } from '../../infra/stack.ts';

const DEV_DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies,
);
const TEST_ONLY_PACKAGES = new Set<string>([...TEST_ONLY_MODULES.packages, ...DEV_DEPENDENCIES]);

/** The package a bundled file belongs to (node_modules may be a link elsewhere: esbuild names the real path). */
function packageOf(input: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/** What a bundle carries: its output's inputs (a module parsed but shaken out entirely is not in it). */
function bundledInputs(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
}

/** Whether a project path is one of `modules` (a trailing `/` names a folder). */
function listed(input: string, modules: readonly string[]): boolean {
  return modules.some((module) => (module.endsWith('/') ? input.startsWith(module) : input === module));
}

/** What a bundle carries that serves only tests, the bench or `npm start`. */
function testOnlyInputs(metafile: Metafile): string[] {
  return bundledInputs(metafile).filter((input) => {
    const name = packageOf(input);
    if (name !== undefined) return TEST_ONLY_PACKAGES.has(name);
    return listed(input, TEST_ONLY_MODULES.project);
  });
}

/** What a bundle carries that only the OpenAPI document runs. */
function documentOnlyInputs(metafile: Metafile): string[] {
  return bundledInputs(metafile).filter((input) => listed(input, DOCUMENT_ONLY_MODULES));
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
  // The image processing leaves sharp out as its own bundling does (its linux-arm64 build is copied in beside it).
  const ownExternals = (name: string) => (options: BuildOptions) =>
    name === IMAGE_PROCESSING_HANDLER ? { ...options, external: [...(options.external ?? []), ...IMAGE_PROCESSING_EXTERNAL_MODULES] } : options;
  await Promise.all([...deployed].filter(([, api]) => api).map(async ([name]) => metafiles.set(name, await bundle(name, ownExternals(name)))));
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

describe('deployed bundles hold none of the OpenAPI document', () => {
  it('no bundle includes a DOCUMENT_ONLY_MODULES module: functions do not run the schemas of their answers', () => {
    const offenders = [...metafiles].flatMap(([name, metafile]) => documentOnlyInputs(metafile).map((input) => `${name}: ${input}`));
    expect(offenders).toEqual([]);
  });

  it('a function that imported an answer schema would carry its module, and the check above would name it', async () => {
    const { metafile } = await build({
      ...apiFunctionEsbuildOptions({}, outdir),
      entryPoints: undefined,
      stdin: {
        contents: "import { proposedOrderResponse } from '#shared/schemas/responses/money.ts'; export const handler = () => proposedOrderResponse;",
        resolveDir: PROJECT_ROOT,
        sourcefile: 'entry.ts',
        loader: 'ts',
      },
      metafile: true,
      write: false,
    });
    expect(documentOnlyInputs(metafile)).toContain('shared/schemas/responses/money.ts');
  });
});

/**
 * The esbuild options NodejsFunction runs for every API function (API_FUNCTION_BUNDLING), for tools
 * that bundle the same way through esbuild's API: the bundle smoke test (test/ops/bundles.test.ts)
 * and the cold-start bench (bench/cold-start/cold-start.ts). One build call takes many entries; without code
 * splitting each output is still its own complete bundle, as NodejsFunction builds it.
 */
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { API_FUNCTION_BUNDLING, PROJECT_ROOT } from './constructs/api-function.ts';

/** Every NodejsFunction bundling option API_FUNCTION_BUNDLING sets, and how it maps to esbuild. */
const MAPPED_OPTIONS = new Set(['minify', 'sourceMap', 'format', 'target', 'externalModules', 'banner', 'mainFields', 'define', 'esbuildArgs']);

/** esbuild's `alias` option from NodejsFunction's `--alias:<from>` arguments; any other argument is not mirrored. */
function aliasesOf(esbuildArgs: Record<string, string | boolean>): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const [argument, value] of Object.entries(esbuildArgs)) {
    if (!argument.startsWith('--alias:') || typeof value !== 'string')
      throw new Error(`apiFunctionEsbuildOptions does not map the esbuild argument ${argument}`);
    aliases[argument.slice('--alias:'.length)] = value;
  }
  return aliases;
}

/**
 * esbuild options equivalent to NodejsFunction with API_FUNCTION_BUNDLING. `entries` maps each output
 * path (under `outdir`, without extension) to its entry file; e.g. `users-show/index` gives
 * `users-show/index.mjs` as the function's asset holds it.
 */
export function apiFunctionEsbuildOptions(entries: Record<string, string>, outdir: string): BuildOptions {
  const bundling = API_FUNCTION_BUNDLING;
  const unmapped = Object.keys(bundling).filter((option) => !MAPPED_OPTIONS.has(option));
  // A new bundling option must be mirrored here, or the tested bundles would differ from the deployed ones.
  if (unmapped.length > 0) throw new Error(`apiFunctionEsbuildOptions does not map API_FUNCTION_BUNDLING.${unmapped.join(', ')}`);
  return {
    entryPoints: entries,
    outdir,
    outExtension: { '.js': bundling.format === OutputFormat.ESM ? '.mjs' : '.js' },
    bundle: true,
    platform: 'node',
    target: bundling.target,
    format: bundling.format === OutputFormat.ESM ? 'esm' : 'cjs',
    minify: bundling.minify,
    sourcemap: bundling.sourceMap,
    external: [...bundling.externalModules],
    banner: { js: bundling.banner },
    mainFields: [...bundling.mainFields],
    alias: aliasesOf(bundling.esbuildArgs),
    define: { ...bundling.define },
    absWorkingDir: PROJECT_ROOT,
    logLevel: 'silent',
  };
}

/**
 * zod as a deployed function carries it (shared/schemas/zod.ts): zod/mini, its English locale and no other.
 * The error bodies embed the English messages; zod/mini loads no locale itself, and the module that loads it
 * survives bundling only because package.json's `sideEffects` names it. Without it a bundle would answer
 * "Invalid input" where the suite, run unbundled, sees "Too small: expected string to have >=1 characters".
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { handlerEntry } from '../../infra/constructs/api-function.ts';
import { apiFunctionEsbuildOptions } from '../../infra/esbuild-options.ts';

const FUNCTION = 'users-create';

describe(`zod in the ${FUNCTION} bundle`, () => {
  it('is zod/mini with its English messages and no other locale', async () => {
    const result = await build({
      ...apiFunctionEsbuildOptions({ [`${FUNCTION}/index`]: handlerEntry(FUNCTION) }, '/nonexistent'),
      write: false,
      metafile: true,
    });
    const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith('.mjs'))![1];
    const zodModules = Object.entries(output.inputs)
      .filter(([path, input]) => path.includes('node_modules/zod/') && input.bytesInOutput > 0)
      .map(([path]) => path.slice(path.indexOf('node_modules/zod/') + 'node_modules/zod/'.length));
    expect(zodModules.filter((path) => path.startsWith('v4/locales/'))).toEqual(['v4/locales/en.js']);
    expect(zodModules.filter((path) => path.startsWith('v4/classic/'))).toEqual([]);
    expect(zodModules.some((path) => path.startsWith('v4/mini/'))).toBe(true);
    const bundle = result.outputFiles.find((file) => file.path.endsWith('.mjs'))!.text;
    expect(bundle).toContain('Too small: expected');
  });
});

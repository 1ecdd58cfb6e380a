/**
 * Files a function reads at run time (a route's `bundledFiles`, paths from the repository root):
 * in Lambda they sit beside the function's index.mjs (copied there by the bundling hook of
 * infra/constructs/route-functions.ts); locally, and in tests, they are read where they are in the
 * repository. Each is read once per process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const loaded = new Map<string, string>();

/** The text of a bundled file (a path from the repository root, e.g. `docs/openapi.json`). */
export function readBundledFile(file: string): string {
  let text = loaded.get(file);
  if (text === undefined) {
    // Bundled, import.meta.url is the function's index.mjs; unbundled, this file's URL under shared/http/.
    const beside = fileURLToPath(new URL(basename(file), import.meta.url));
    text = readFileSync(existsSync(beside) ? beside : fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
    loaded.set(file, text);
  }
  return text;
}

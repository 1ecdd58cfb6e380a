/**
 * The ecosystem's other check of the document: Spectral's `spectral:oas` (test/openapi/spectral-ruleset.ts
 * says which warnings are acknowledged, and why), run in process on a fresh build. Zero errors, zero warnings.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDocument, serializeDocument } from '#shared/openapi/document.ts';
import { SPECTRAL_RULESET } from './spectral-ruleset.ts';

// Both packages are CommonJS: their named exports arrive on the default export under Node's ESM interop.
const { Document, Ruleset, Spectral } = spectralCore;
const { Json } = spectralParsers;

const SEVERITY = ['error', 'warning', 'information', 'hint'];
/** Where the ruleset's `overrides` (globs with JSON pointers into the document) are resolved from. */
const RULESET_SOURCE = fileURLToPath(new URL('./spectral-ruleset.ts', import.meta.url));

let text = '';
beforeAll(async () => {
  text = serializeDocument(await buildDocument());
}, 120_000);

/** Spectral's findings on the document under a ruleset, one line each. */
async function lint(ruleset: RulesetDefinition): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset(new Ruleset(ruleset, { source: RULESET_SOURCE }));
  // The document's source names a file so the overrides' globs can match it; nothing is written there.
  const results = await spectral.run(new Document(text, Json, join(tmpdir(), 'openapi.json')));
  return results.map((result) => `${SEVERITY[result.severity]} ${String(result.code)} at ${result.path.join('.')}: ${result.message}`);
}

describe('Spectral lint (spectral:oas)', () => {
  it('finds no error and no unacknowledged warning in the document', { timeout: 120_000 }, async () => {
    expect(await lint(SPECTRAL_RULESET)).toEqual([]);
  });

  it('acknowledges only what it names: without the config, exactly those warnings appear', { timeout: 120_000 }, async () => {
    const findings = await lint({ extends: SPECTRAL_RULESET.extends });
    expect(findings.map((finding) => finding.split(':')[0]).sort()).toEqual([
      'warning info-contact at info',
      'warning operation-success-response at paths./v14/facebook_connection.delete.responses',
      'warning operation-success-response at paths./v14/facebook_connection.post.responses',
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypes } from '../../scripts/client-types.ts';

/**
 * The typed client's types are generated, never edited: clients/typescript/schema.d.ts must be exactly what
 * openapi-typescript makes of the committed docs/openapi.json. Fix a failure with `npm run openapi`.
 */
describe('clients/typescript/schema.d.ts', () => {
  it('is what `npm run openapi` generates from docs/openapi.json (not stale, not edited by hand)', async () => {
    const document = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    // A mismatch printed in full would be 380 KB: name the first differing line instead.
    const generated = await clientTypes(document);
    const [committedLines, generatedLines] = [committed.split('\n'), generated.split('\n')];
    const first = generatedLines.findIndex((line, index) => line !== committedLines[index]);
    expect(first === -1 && committedLines.length === generatedLines.length ? 'up to date' : `stale from line ${first + 1}: run npm run openapi`).toBe(
      'up to date',
    );
  });
});

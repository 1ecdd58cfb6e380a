import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A user clones only this repository: nothing in it may read or link a file outside it. Every
 * relative path written in a tracked text file (imports, `new URL(..., import.meta.url)`, Markdown
 * links, shell paths) must resolve inside the clone, and no file may name the machine-local folder
 * the contract and client references live in on the team's machines.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEXT_FILE = /\.(ts|mts|js|mjs|cjs|json|md|sh|ya?ml|txt)$|(^|\/)(run|Dockerfile)$/;
/** A relative path climbing at least one level: `../x`, `../../x`. */
const RELATIVE_UP = /(?<![\w./-])((?:\.\.\/)+)([\w@.#$-][^\s'"`)\]>,;]*)?/g;
// Spelled in pieces so this file does not name what it looks for.
const MACHINE_LOCAL = new RegExp(['/', 'work', '/'].join(''));
const SIBLING_SHARED = new RegExp(['\\.\\./', 'shared', '/(spec|reference)'].join(''));

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '' && TEXT_FILE.test(file));
}

function escapesRoot(file: string, climb: string): boolean {
  const target = resolve(join(ROOT, dirname(file)), climb);
  return relative(ROOT, target).startsWith('..');
}

describe('the repository stands alone', () => {
  const files = trackedTextFiles();

  it('finds the files it checks', () => {
    expect(files).toContain('package.json');
    expect(files).toContain('test/money/orders.test.ts');
  });

  it('tells a path that climbs out of the clone from one that stays inside', () => {
    const up = (levels: number) => '../'.repeat(levels);
    expect(escapesRoot('test/money/orders.test.ts', up(3))).toBe(true);
    expect(escapesRoot('test/money/orders.test.ts', up(2))).toBe(false);
    expect(escapesRoot('README.md', up(1))).toBe(true);
    expect([...`see ${up(2)}x and ./y`.matchAll(RELATIVE_UP)].map((match) => match[1])).toEqual([up(2)]);
  });

  it('reads and links nothing outside itself', () => {
    const offenders = new Set<string>();
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, index) => {
        const where = `${file}:${index + 1}: ${line.trim().slice(0, 160)}`;
        if (MACHINE_LOCAL.test(line) || SIBLING_SHARED.test(line)) offenders.add(where);
        for (const match of line.matchAll(RELATIVE_UP)) {
          if (escapesRoot(file, match[1]!)) offenders.add(where);
        }
      });
    }
    expect([...offenders]).toEqual([]);
  });
});

/**
 * The audit log is append-only (docs/security.md, "Audit log tampering"): read from the sources, no code path
 * updates or deletes an audit entry. Entries are written only through `AuditEntry` in shared/domain/audit/audit-log.ts,
 * whose only write is `putNew`; nothing else names the audit keys or the entity, so nothing else can build a write
 * to them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const AUDIT_MODULE = 'shared/domain/audit/audit-log.ts';

function sources(folder: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

const code = [...sources('shared'), ...sources('functions'), ...sources('scripts')];

describe('the audit log is append-only', () => {
  it('names the audit keys and the AuditEntry entity only in its own module (and the key builders)', () => {
    const naming = code.filter((file) => /keys\.(auditEntry|auditLog)\b|\bAuditEntry\.at\(/.test(file.text)).map((file) => file.path);
    expect(naming).toEqual([AUDIT_MODULE]);
  });

  it('writes an entry only with putNew: no update, put-over or delete of one', () => {
    const module = code.find((file) => file.path === AUDIT_MODULE)!.text;
    const writes = [...module.matchAll(/AuditEntry\.at\([^)]*\)\.(\w+)\(/g)].map((match) => match[1]);
    expect(writes.length).toBeGreaterThan(0);
    expect(new Set(writes)).toEqual(new Set(['putNew']));
    expect(module).not.toMatch(/\b(UpdateCommand|DeleteCommand|PutCommand|deleteItems|BatchWriteCommand)\b/);
  });
});

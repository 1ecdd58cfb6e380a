import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layout rules of docs/architecture.md, checked by reading the sources (no DynamoDB, no network):
 * what each folder may import, and the few rules that keep one way of doing a thing. A rule broken
 * here names the file and the line; fix the code, or change the rule here AND in docs/architecture.md.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Source {
  path: string;
  lines: string[];
}

function sources(folder: string): Source[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort()
    .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n') }));
}

const shared = sources('shared');
const functions = sources('functions');
const everything = [...shared, ...functions, ...sources('scripts'), ...sources('bench'), ...sources('infra')];

/** `file:line: text` of every line of `files` that matches. */
function offending(files: Source[], pattern: RegExp): string[] {
  return files.flatMap((file) => file.lines.flatMap((line, index) => (pattern.test(line) ? [`${file.path}:${index + 1}: ${line.trim()}`] : [])));
}

const under = (prefix: string) => (file: Source) => file.path.startsWith(prefix);
const not = (predicate: (file: Source) => boolean) => (file: Source) => !predicate(file);

/** The repository file an import names (`#shared/...` or a relative path), or undefined for a package. */
function imported(file: Source, specifier: string): string | undefined {
  if (specifier.startsWith('#shared/')) return `shared/${specifier.slice('#shared/'.length)}`;
  if (specifier.startsWith('.')) return relative(ROOT, resolve(ROOT, dirname(file.path), specifier));
  return undefined;
}

function imports(file: Source): { target: string; line: number }[] {
  return file.lines.flatMap((line, index) => {
    // The last alternative is the closing line of an import or export that spans several lines (`} from '...'`).
    const specifier = /^\s*(?:import|export)\b.*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\('([^']+)'\)|^\s*\}\s*from\s+'([^']+)'/.exec(line);
    const target = specifier && imported(file, specifier[1] ?? specifier[2] ?? specifier[3] ?? specifier[4]!);
    return target ? [{ target, line: index + 1 }] : [];
  });
}

/** The part of the house a file belongs to, as docs/architecture.md names them. */
function part(path: string): string {
  if (path.startsWith('functions/')) return 'functions';
  const match = /^shared\/([^/]+)\//.exec(path);
  if (match) return `shared/${match[1]}`;
  return path.replace(/\.ts$/, '');
}

/** What each part of shared/ (and functions/) may import; its own part is always allowed. */
const LEAVES = ['shared/errors', 'shared/time', 'shared/log', 'shared/env', 'shared/routes', 'shared/throttling', 'shared/invocation-end', 'shared/metrics'];
const MAY_IMPORT: Record<string, string[]> = {
  'shared/errors': [],
  'shared/time': [],
  'shared/log': [],
  'shared/env': [],
  'shared/routes': [],
  'shared/throttling': [],
  'shared/invocation-end': [],
  'shared/metrics': ['shared/invocation-end'],
  'shared/db': ['shared/env', 'shared/log'],
  // The route table's vocabularies the requests name too (the staff roles), from the leaf that owns them.
  'shared/schemas': ['shared/time', 'shared/routes'],
  'shared/payments': ['shared/env', 'shared/log'],
  'shared/workflows': ['shared/env', 'shared/log'],
  'shared/queues': ['shared/env', 'shared/log'],
  'shared/geocoding': ['shared/env', 'shared/log'],
  'shared/mail': ['shared/env', 'shared/log'],
  'shared/images': ['shared/env', 'shared/log'],
  'shared/ordering': ['shared/env', 'shared/log'],
  'shared/push': ['shared/env', 'shared/log'],
  'shared/auth': [...LEAVES, 'shared/db'],
  'shared/domain': [
    ...LEAVES,
    'shared/db',
    'shared/schemas',
    'shared/auth',
    'shared/payments',
    'shared/workflows',
    'shared/queues',
    'shared/geocoding',
    'shared/mail',
    'shared/ordering',
    'shared/images',
    'shared/push',
  ],
  'shared/http': [...LEAVES, 'shared/db', 'shared/schemas', 'shared/auth', 'shared/domain'],
  'shared/endpoints': [...LEAVES, 'shared/db', 'shared/schemas', 'shared/auth', 'shared/domain', 'shared/http'],
  // The document describes the domain's catalogues too: the webhooks section reads the events' audiences, retry schedule and signatures.
  'shared/openapi': [...LEAVES, 'shared/schemas', 'shared/http', 'shared/domain', 'functions'],
  functions: [...LEAVES, 'shared/schemas', 'shared/domain', 'shared/http', 'shared/endpoints', 'docs/openapi.json'],
};

describe('what each folder may import (docs/architecture.md)', () => {
  it("keeps every import of shared/ and functions/ inside its part's allowed list", () => {
    const broken = [...shared, ...functions].flatMap((file) => {
      const from = part(file.path);
      const allowed = MAY_IMPORT[from];
      if (!allowed) return [`${file.path}: ${from} is not a part docs/architecture.md names`];
      return imports(file)
        .filter(({ target }) => part(target) !== from && !allowed.includes(part(target)))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`);
    });
    expect(broken).toEqual([]);
  });

  // Route code shared by several handlers sits above the pipeline: the pipeline never reaches a route, and a
  // route's code is a handler's, so nothing but a handler (and the tests) imports it.
  it('lets only functions/ import shared/endpoints (not the pipeline, the OpenAPI generator, infra, scripts or the bench)', () => {
    const importers = everything.filter((file) => !file.path.startsWith('shared/endpoints/') && !file.path.startsWith('functions/'));
    const broken = importers.flatMap((file) =>
      imports(file)
        .filter(({ target }) => target.startsWith('shared/endpoints/'))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('keeps the money path above the areas it calls: orders/ and order-ahead/ are imported by no other domain module', () => {
    const areas = shared.filter((file) => file.path.startsWith('shared/domain/') && !/^shared\/domain\/(orders|order-ahead)\//.test(file.path));
    const upward = areas.flatMap((file) =>
      imports(file)
        .filter(({ target }) => /^shared\/domain\/(orders|order-ahead)\//.test(target))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
    );
    const ordersToOrderAhead = shared.filter(under('shared/domain/orders/')).flatMap((file) =>
      imports(file)
        .filter(({ target }) => target.startsWith('shared/domain/order-ahead/'))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
    );
    expect([...upward, ...ordersToOrderAhead]).toEqual([]);
  });

  // The answer schemas are documentation (no function validates what it answers): a function that imported one
  // would carry and build a module of them at every cold start. A domain module may take the type of the answer
  // it builds from its schema (`import type`, erased from the bundle), so the answer's shape is written once.
  it('leaves the answer schemas (shared/schemas/responses) to the document: no function or request schema imports them, a domain module only their types', () => {
    const readers = [...shared, ...functions].filter(not(under('shared/openapi/'))).filter(not(under('shared/schemas/responses/')));
    const typeOnly = (file: Source, line: number) =>
      file.path.startsWith('shared/domain/') &&
      /^\s*import type\b/.test(file.lines.slice(0, line).findLast((text) => /^\s*(?:import|export)\b/.test(text)) ?? '');
    const offenders = readers.flatMap((file) =>
      imports(file)
        .filter(({ target, line }) => target.startsWith('shared/schemas/responses/') && !typeOnly(file, line))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the typed client stands alone (clients/typescript, docs/architecture.md)', () => {
  const client = sources('clients');

  it('imports nothing of the service: shared/, infra/, functions/, scripts/ stay out, so the folder is copied into an app as it is', () => {
    expect(client.map((file) => file.path)).toContain('clients/typescript/index.ts');
    const outside = client.flatMap((file) =>
      imports(file)
        .filter(({ target }) => !target.startsWith('clients/typescript/'))
        .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
    );
    expect([...outside, ...offending(client, /from '#shared\//)]).toEqual([]);
  });

  it('keeps index.ts free of Node built-ins: it runs in browsers too (only example.ts is a Node script)', () => {
    expect(
      offending(
        client.filter((file) => file.path === 'clients/typescript/index.ts'),
        /from 'node:/,
      ),
    ).toEqual([]);
  });
});

/**
 * The import circles among `files`, at file level: each strongly connected part of the import graph (Tarjan)
 * with more than one file, as `a -> b -> ... -> a` paths of repository paths. Type-only and dynamic imports
 * count: a circle of types still ties two modules together.
 */
function importCircles(files: Source[]): string[] {
  const paths = new Set(files.map((file) => file.path));
  const edges = new Map(files.map((file) => [file.path, [...new Set(imports(file).map(({ target }) => target))].filter((target) => paths.has(target))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[] = [];
  const visit = (path: string): void => {
    index.set(path, index.size);
    low.set(path, index.get(path)!);
    stack.push(path);
    for (const next of edges.get(path) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(path, Math.min(low.get(path)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(path, Math.min(low.get(path)!, index.get(next)!));
    }
    if (low.get(path) !== index.get(path)) return;
    const part = stack.splice(stack.indexOf(path));
    if (part.length > 1) circles.push(part.sort().join(' <-> '));
  };
  for (const path of paths) if (!index.has(path)) visit(path);
  return circles;
}

/**
 * The only files at the root of shared/domain, each with why it spans areas; everything else lives in its
 * business area's folder (docs/architecture.md, "shared/domain by business area").
 */
const LOOSE_DOMAIN_FILES: Record<string, string> = {
  'shared/domain/rate-limits.ts': 'the windows of logins (identity), codes (cards, loyalty) and manager confirmations (merchants)',
  'shared/domain/csv.ts': 'the CSV writing rules (quoting, formula cells) of the audit log export (audit) and the orders and ledger exports (reports)',
};

describe('shared/domain by business area (docs/architecture.md)', () => {
  it('keeps no loose file at the root of shared/domain but the ones named here', () => {
    const loose = shared.filter((file) => /^shared\/domain\/[^/]+\.ts$/.test(file.path)).map((file) => file.path);
    expect(loose).toEqual(Object.keys(LOOSE_DOMAIN_FILES).sort());
  });

  // "Back up": a module at the root of shared/domain imports from an area folder below it (shared/domain/<area>/).
  // The root holds only what several areas use, so it depends on none of them; areas import each other freely,
  // as long as no circle runs through them (next rule).
  it('imports nothing back up: the root of shared/domain imports no area', () => {
    const backUp = shared
      .filter((file) => /^shared\/domain\/[^/]+\.ts$/.test(file.path))
      .flatMap((file) =>
        imports(file)
          .filter(({ target }) => /^shared\/domain\/[^/]+\//.test(target))
          .map(({ target, line }) => `${file.path}:${line} -> ${target}`),
      );
    expect(backUp).toEqual([]);
  });

  it('has no import circle anywhere inside shared/ (file level)', () => {
    expect(importCircles(shared)).toEqual([]);
  });
});

describe('one way to do each thing', () => {
  it('builds raw transactions and batch reads only in shared/db (transactWrite, readItems)', () => {
    expect(offending(everything.filter(not(under('shared/db/'))), /\b(TransactWriteCommand|BatchGetCommand)\b/)).toEqual([]);
  });

  it('writes conditional creates with putNew / createItem, never an inline attribute_not_exists(pk) condition', () => {
    expect(offending(everything.filter(not(under('shared/db/'))), /ConditionExpression: 'attribute_not_exists\(pk\)'/)).toEqual([]);
  });

  it('writes key prefixes only in shared/db/keys.ts, and calls no key builder with placeholder arguments', () => {
    const elsewhere = everything.filter((file) => file.path !== 'shared/db/keys.ts');
    expect(offending(elsewhere, /['"`][A-Z][A-Z0-9]+#/)).toEqual([]);
    expect(offending(everything, /\bkeys\.\w+\([^)]*(''|"")/)).toEqual([]);
  });

  it('raises errors through the helpers of shared/errors.ts: no new ApiError( in the domain or the handlers', () => {
    expect(offending([...shared.filter(under('shared/domain/')), ...functions], /new ApiError\(/)).toEqual([]);
  });

  it('waits between retries only through the backoff of shared/db/transient.ts', () => {
    const retryLoops = /\bsleep\(|setTimeout\(resolve/;
    expect(offending([...shared.filter(not(under('shared/db/'))), ...functions], retryLoops)).toEqual([]);
  });

  it('has no side-effect imports in shared/ (collaborators are called, not registered)', () => {
    expect(offending(shared, /^\s*import\s+'[^']+';/).filter((line) => !line.startsWith('shared/openapi/'))).toEqual([]);
  });

  // shared/schemas/zod.ts loads zod/mini with its English messages (the error bodies embed them) and no other
  // locale; a module importing zod itself could build a schema on the classic API (~90 KiB of a bundle) or
  // parse without those messages.
  it('takes zod from shared/schemas/zod.ts only', () => {
    expect(
      offending(
        everything.filter((file) => file.path !== 'shared/schemas/zod.ts'),
        /from 'zod(\/[^']*)?'/,
      ),
    ).toEqual([]);
  });

  it('declares handler responses plainly: adding a route needs no bundling incantation (issue 35)', () => {
    expect(offending([...functions, ...shared.filter(under('shared/http/')), ...shared.filter(under('shared/endpoints/'))], /OMIT_RESPONSE_SCHEMAS/)).toEqual(
      [],
    );
  });
});

describe('size', () => {
  const MONEY = [
    /^shared\/domain\/orders\//,
    /^shared\/domain\/money\/(ledger|accounts|gift-cards|idempotency)\.ts$/,
    /^shared\/domain\/loyalty\/order-effects\.ts$/,
    /^shared\/db\/(transactions|reads|transient)\.ts$/,
  ];

  it('keeps every money module under 400 lines', () => {
    const money = shared.filter((file) => MONEY.some((pattern) => pattern.test(file.path)));
    expect(money.length).toBeGreaterThanOrEqual(12);
    expect(money.filter((file) => file.lines.length > 400).map((file) => `${file.path}: ${file.lines.length} lines`)).toEqual([]);
  });
});

describe('no import circles outside shared/', () => {
  it.each(['infra', 'scripts'])('has no import circle inside %s/', (folder) => {
    expect(importCircles(sources(folder))).toEqual([]);
  });
});

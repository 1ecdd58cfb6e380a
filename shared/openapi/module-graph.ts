/**
 * Which modules a handler's code reaches through its static imports, read from the source files (the
 * generator runs at build time, beside the sources). The document derives from it what the code does
 * rather than from a hand-kept list: an operation honours `Idempotency-Key` when its handler reaches the
 * adapter that reads the header (shared/http/idempotency.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** `import ... from '<specifier>'`, `export ... from '<specifier>'` and `import '<specifier>'`. */
const IMPORT_SPECIFIER = /^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?'([^']+)'/gm;

export class ModuleGraph {
  private readonly importsByFile = new Map<string, string[]>();

  constructor(private readonly projectRoot: string) {}

  /** The project files `file` imports directly (package imports are not followed). */
  private importsOf(file: string): string[] {
    let imports = this.importsByFile.get(file);
    if (imports === undefined) {
      imports = [];
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT_SPECIFIER)) {
        const target = specifier!.startsWith('#shared/')
          ? join(this.projectRoot, 'shared', specifier!.slice('#shared/'.length))
          : specifier!.startsWith('.')
            ? resolve(dirname(file), specifier!)
            : undefined;
        if (target !== undefined && existsSync(target)) imports.push(target);
      }
      this.importsByFile.set(file, imports);
    }
    return imports;
  }

  /** Every project file `entry` (a path from the project root) reaches, itself included, as paths from the root. */
  reachableFrom(entry: string): Set<string> {
    const seen = new Set<string>();
    const pending = [join(this.projectRoot, entry)];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      pending.push(...this.importsOf(file));
    }
    return new Set([...seen].map((file) => relative(this.projectRoot, file)));
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// Type-only and dynamic imports count: a circle of either still means neither module can be read alone.
const IMPORT = /^\s*(?:import|export)\b.*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\('([^']+)'\)/;

/** The files under `folder` each file there imports (relative and `#shared/...` specifiers), paths from the repository root. */
function importGraph(folder: string): Map<string, string[]> {
  const files = readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
  const inFolder = new Set(files);
  return new Map(
    files.map((file) => {
      const targets = readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line) => {
          const match = IMPORT.exec(line);
          const specifier = match && (match[1] ?? match[2] ?? match[3]!);
          if (!specifier) return [];
          if (specifier.startsWith('#shared/')) return [`shared/${specifier.slice('#shared/'.length)}`];
          return specifier.startsWith('.') ? [relative(ROOT, resolve(ROOT, dirname(file), specifier))] : [];
        })
        .filter((target) => inFolder.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/**
 * Every import circle among the files under `folder` (a path from the repository root), one line per
 * group of files that reach each other: `a.ts <-> b.ts <-> c.ts`. Empty when the folder has none.
 * Tarjan's strongly connected components: each component of more than one file, or a file importing
 * itself, is a circle.
 */
export function importCircles(folder: string): string[] {
  const graph = importGraph(folder);
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];

  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) circles.push(component.sort().join(' <-> '));
  };

  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort();
}

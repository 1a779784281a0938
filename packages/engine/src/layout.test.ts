import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The engine's folders point one way (design.md: load → build/positions → plan → apply → flows →
 * render, with state, policy, routing and the others beside them): no folder imports one that
 * imports it back, directly or round a longer loop, and no files import each other in a circle.
 * Type-only imports count: a type that points back is where the next value import goes.
 */

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's imports of other engine files (static, re-exports and dynamic `import()`). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const [, spec] of text.matchAll(specifier)) {
      targets.add(resolve(dirname(file), (spec as string).replace(/\.js$/, '.ts')));
    }
    graph.set(relative(SRC, file), new Set([...targets].map((t) => relative(SRC, t))));
  }
  return graph;
}

const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : undefined);

/** The strongly connected parts of a graph with more than one member (Tarjan). */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      part.push(w);
      if (w === v) break;
    }
    if (part.length > 1) found.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the engine’s layout', () => {
  const graph = importGraph();

  it('reads the imports it checks (the graph is not empty, and sees a known edge)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('flows/deploy.ts')).toContain('apply/apply.ts');
  });

  it('has no files that import each other in a circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('has no folders that import each other, directly or round a loop', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      if (from === undefined) continue;
      const out = folders.get(from) ?? new Set<string>();
      folders.set(from, out);
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== undefined && to !== from) out.add(to);
      }
    }
    expect(circles(folders)).toEqual([]);
  });

  it('keeps each folder’s error classes in its errors.ts (or the engine’s own errors.ts)', () => {
    const errorClass = /^\s*(?:export\s+)?(?:abstract\s+)?class\s+(\w+)\s+extends\s+(\w+)/gm;
    const elsewhere = sourceFiles(SRC).flatMap((file) => {
      if (file.endsWith('/errors.ts')) return [];
      return [...readFileSync(file, 'utf8').matchAll(errorClass)]
        .filter(([, name, base]) => /Error$/.test(name as string) || /Error$/.test(base as string))
        .map(([, name]) => `${relative(SRC, file)}: ${name}`);
    });
    expect(elsewhere).toEqual([]);
  });

  it('keeps render/ on top: nothing outside it imports it', () => {
    const intoRender = [...graph].flatMap(([file, targets]) =>
      folderOf(file) === 'render' || folderOf(file) === undefined
        ? []
        : [...targets].filter((t) => folderOf(t) === 'render').map((t) => `${file} → ${t}`),
    );
    expect(intoRender).toEqual([]);
  });
});

import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceLocation } from '@monitor/constructs';
import type { OriginalPosition } from './position-map.js';

/** The files of a build and where a position in one came from (what `build/bundle.ts`'s Bundle offers). */
export interface MappedFiles {
  readonly files: readonly string[];
  lookup(file: string, line: number, column: number): OriginalPosition | undefined;
}

/** Rewrite bundle positions in a stack trace to source positions; return the first user frame. */
export function mapStack(
  stack: string,
  b: MappedFiles,
  projectDir: string,
): { text: string; first: SourceLocation | undefined } {
  let first: SourceLocation | undefined;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Each file of the bundle, as a URL or a path, to the file it names.
  const byName = new Map(b.files.flatMap((f) => [[pathToFileURL(f).href, f] as const, [f, f] as const]));
  const names = [...byName.keys()].sort((x, y) => y.length - x.length).map(escaped);
  const pattern = new RegExp(`(${names.join('|')}):(\\d+):(\\d+)`, 'g');
  const text = stack.replace(pattern, (whole, name: string, line: string, column: string) => {
    const original = b.lookup(byName.get(name) ?? name, Number(line), Number(column));
    if (original === undefined) return whole;
    if (first === undefined && !original.source.includes('/node_modules/'))
      first = { file: original.source, line: original.line, column: original.column };
    return `${relative(projectDir, original.source)}:${original.line}:${original.column}`;
  });
  return { text, first };
}

import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceLocation } from '@monitor/constructs';
import type { Bundle } from './bundle.js';

/** Rewrite bundle positions in a stack trace to source positions; return the first user frame. */
export function mapStack(
  stack: string,
  b: Bundle,
  projectDir: string,
): { text: string; first: SourceLocation | undefined } {
  const url = pathToFileURL(b.file).href;
  let first: SourceLocation | undefined;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?:${escaped(url)}|${escaped(b.file)}):(\\d+):(\\d+)`, 'g');
  const text = stack.replace(pattern, (whole, line: string, column: string) => {
    const original = b.map.lookup(Number(line), Number(column));
    if (original === undefined) return whole;
    if (first === undefined && !original.source.includes('/node_modules/'))
      first = { file: original.source, line: original.line, column: original.column };
    return `${relative(projectDir, original.source)}:${original.line}:${original.column}`;
  });
  return { text, first };
}

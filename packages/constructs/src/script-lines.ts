import { readFileSync } from 'node:fs';

/**
 * Where a position of a script is, line and column (1-based, as V8 counts them), read from the
 * script's own text. V8 in Node 20 finds a call site's line by scanning its script from the start,
 * for each call site anew: ~6 µs a site of a bundle of 1,000 constructs, most of what placing a
 * validate's findings cost. Here each script is read once and its line starts kept.
 */
export function lineAndColumn(path: string, position: number): { line: number; column: number } | undefined {
  let starts = LINE_STARTS.get(path);
  if (starts === undefined) {
    if (LINE_STARTS.size >= KEPT_SCRIPTS) LINE_STARTS.clear();
    starts = lineStartsOf(path);
    LINE_STARTS.set(path, starts);
  }
  // The last entry is the script's length: a position past it is not of this text.
  if (starts === null || position < 0 || position > (starts.at(-1) as number)) return undefined;
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: position - (starts[low] as number) + 1 };
}

/** Each script's line starts, then its length; null for one that cannot be read. */
const LINE_STARTS = new Map<string, Int32Array | null>();
/** A long-lived process loads many bundles: it starts again past this many scripts. */
const KEPT_SCRIPTS = 64;

/** What ends a line for V8: \n, \r\n, a lone \r, U+2028 and U+2029. */
const LINE_END = /\r\n|[\n\r\u2028\u2029]/g;

function lineStartsOf(path: string): Int32Array | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  // What Node hands V8 of a module: its text without a byte-order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const starts = [0];
  LINE_END.lastIndex = 0;
  for (let m = LINE_END.exec(text); m !== null; m = LINE_END.exec(text)) starts.push(m.index + m[0].length);
  starts.push(text.length);
  return Int32Array.from(starts);
}

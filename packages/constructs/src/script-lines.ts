import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';

/**
 * Where a position of a script is, line and column (1-based, as V8 counts them), read from the
 * script's own text. V8 in Node 20 finds a call site's line by scanning its script from the start,
 * for each call site anew: ~6 µs a site of a bundle of 1,000 constructs, most of what placing a
 * validate's findings cost. Here each script is read once and its line starts kept.
 *
 * The file is read when the first of its positions is asked for, which may be after it ran: the
 * first position is placed by V8 too (`placedByV8`), and a file whose text no longer agrees (a
 * library rebuilt meanwhile) is left to V8. Undefined: ask V8.
 */
export function lineAndColumn(
  path: string,
  position: number,
  placedByV8: () => { line: number; column: number },
): { line: number; column: number } | undefined {
  let starts = LINE_STARTS.get(path);
  if (starts === undefined) {
    if (LINE_STARTS.size >= KEPT_SCRIPTS) LINE_STARTS.clear();
    starts = lineStartsOf(path);
    if (starts !== null) {
      const ours = placed(starts, position);
      const v8 = placedByV8();
      if (ours?.line !== v8.line || ours.column !== v8.column) starts = null;
    }
    LINE_STARTS.set(path, starts);
  }
  return starts === null ? undefined : placed(starts, position);
}

/** `position` in the text of `starts`; undefined past its end. */
function placed(starts: Int32Array, position: number): { line: number; column: number } | undefined {
  // The last entry is the script's length: a position past it is not of this text.
  if (position < 0 || position > (starts.at(-1) as number)) return undefined;
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
const KEPT_SCRIPTS = 256;

/** What ends a line for V8: \n, \r\n, a lone \r, U+2028 and U+2029. */
const LINE_END = /\r\n|[\n\r\u2028\u2029]/g;

function lineStartsOf(path: string): Int32Array | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  // What esbuild writes: ASCII, lines ending in \n. Found in the bytes (each byte a UTF-16 unit then),
  // without making a string of a file V8 holds already: a part of a large bundle is ~300 KB.
  if (isAscii(bytes) && !bytes.includes(CR)) return newlineStarts(bytes);
  let text = bytes.toString('utf8');
  // What Node hands V8 of a module: its text without a byte-order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return anyLineStarts(text);
}

const CR = 0x0d;
const LF = 0x0a;

/** Line starts of ASCII text whose lines all end in \n: found with indexOf, nothing made a line. */
function newlineStarts(bytes: Buffer): Int32Array {
  let lines = 1;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) lines++;
  const starts = new Int32Array(lines + 1);
  let line = 1;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) starts[line++] = at + 1;
  starts[lines] = bytes.length;
  return starts;
}

/** Line starts of a text with any of V8's line ends. */
function anyLineStarts(text: string): Int32Array {
  const starts = [0];
  LINE_END.lastIndex = 0;
  for (let m = LINE_END.exec(text); m !== null; m = LINE_END.exec(text)) starts.push(m.index + m[0].length);
  starts.push(text.length);
  return Int32Array.from(starts);
}

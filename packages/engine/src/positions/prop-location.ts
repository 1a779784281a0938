import type { Diagnostic, SourceLocation } from '@monitor/constructs';

/**
 * Where a prop is written: a problem with `name` is reported at `name:`'s own line and column, one
 * with `locations[2]` at that element, as Terraform points at the attribute; a problem of an option
 * (`pathIn: 'options'`) in the third argument. Found in the source of the construct's
 * `new X('id', { … }, { … })` by a small scanner that knows strings, template literals
 * and comments. Where a value is computed rather than written (a variable, a call, a spread), the
 * deepest prop written as a literal is the answer, else the construct's own line.
 */

interface Position {
  line: number;
  column: number;
}

/** A problem at its prop's position in the source, when that can be found; as it was otherwise. */
export function atPropLocation(diagnostic: Diagnostic, sourceOf: SourceReader): Diagnostic {
  const location = diagnostic.location;
  if (location === undefined || diagnostic.path === '' || location.file.includes('/node_modules/')) {
    return diagnostic;
  }
  const source = sourceOf(location.file);
  if (source === undefined) return diagnostic;
  const found = source.propPosition(location, diagnostic.path, diagnostic.pathIn ?? 'props');
  if (found === undefined) return diagnostic;
  const moved: SourceLocation = { ...location, line: found.line, column: found.column };
  return { ...diagnostic, location: moved };
}

/** `a.b[2].c` → `['a', 'b', 2, 'c']`. */
function steps(path: string): (string | number)[] {
  // Most are one prop (`muted`).
  if (!path.includes('.') && !path.includes('[')) return path === '' ? [] : [path];
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (m === null) return out;
    if (m[1] !== '') out.push(m[1] as string);
    for (const index of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

// The scanner reads char codes, and steps over runs of what it need not look at (`PLAIN`, the
// inside of a string) with one search each: a validate scans a few hundred props once, in code
// not yet optimised, where a step of JavaScript per character costs most. The props of 332
// findings took 10.9 ms to find one character at a time, 2.4 ms so.
const NEWLINE = 10;
const SPACE = 32;
const DOUBLE_QUOTE = 34;
const DOLLAR = 36;
const SINGLE_QUOTE = 39;
const STAR = 42;
const COMMA = 44;
const SLASH = 47;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const BACKTICK = 96;
const OPEN_BRACE = 123;
const isOpening = (c: number) => c === 40 || c === OPEN_BRACKET || c === OPEN_BRACE; // ( [ {
const isClosing = (c: number) => c === 41 || c === CLOSE_BRACKET || c === 125; // ) ] }
/** Blanks (`\s`: beyond ASCII the no-break space, line separators, the BOM…) and comments, an unclosed one to the end. */
const BLANKS = /(?:\s|\/\/[^\n]*\n?|\/\*[\s\S]*?(?:\*\/|$))*/y;
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
/** After one of these, a `/` starts a regular expression literal (`a: /\)/`); after anything else it divides. */
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^'].map((c) => c.charCodeAt(0)));
const FLAGS = /[a-z]*/y;
/** A run of characters that neither open nor close anything, nor end an entry (`,`), nor start a comment. */
const PLAIN = /[^"'`/()[\]{},]+/y;
/**
 * A value written plainly (a string without escapes, a number, a name, a list of those) up to
 * the `,` or bracket after it: where `#skipExpression` would stop, found in one search. Most
 * props are written so, and a validate skips thousands of them.
 */
const SIMPLE_VALUE =
  /(?:'[^'\\]*'|"[^"\\]*"|[\w$.]+|\[\s*(?:(?:'[^'\\]*'|"[^"\\]*"|[\w$.]+)\s*(?:,\s*|(?=\])))*\])\s*(?=[,)\]}])/y;
/** A run of a template literal's characters up to its end, an escape or what may start `${`. */
const TEMPLATE_TEXT = /[^`\\$]+/y;

/** A project's source files for one run: each read once, undefined for one that cannot be read (`sourceReader`). */
export type SourceReader = (file: string) => SourceText | undefined;

/**
 * A source file's text, read by a small scanner that knows strings, template literals and
 * comments. Its line starts are found once, and each prop once, however often it is asked: a
 * project's policy findings ask thousands of times (`sourceReader` keeps one per file for a run).
 */
export class SourceText {
  readonly #src: string;
  readonly #lineStarts: number[] = [0];
  /** The props found in this text so far, by the construct's position and the prop's path. */
  readonly #found = new Map<string, Position | undefined>();

  constructor(src: string) {
    this.#src = src;
    for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) this.#lineStarts.push(i + 1);
  }

  /**
   * The position of `path` (`apiCheckDefaults.headers[1].key`) in the props of the `new` at `at`,
   * or in its options (the third argument: `ignoreChanges[0]`).
   */
  propPosition(at: Position, path: string, argument: 'props' | 'options' = 'props'): Position | undefined {
    // Asked again for the same prop: two rules and the finding's own position all read `muted:`.
    const key = `${at.line}:${at.column}:${argument}:${path}`;
    if (this.#found.has(key)) return this.#found.get(key);
    const found = this.#scanProp(at, path, argument);
    this.#found.set(key, found);
    return found;
  }

  #scanProp(at: Position, path: string, argument: 'props' | 'options'): Position | undefined {
    const start = this.offsetOf(at);
    if (start === undefined) return undefined;
    const props = this.objectArgumentOf(start, argument === 'props' ? 1 : 2);
    if (props === undefined) return undefined;
    let value = props;
    let found: number | undefined;
    for (const step of steps(path)) {
      const next = typeof step === 'number' ? this.element(value, step) : this.property(value, step);
      if (next === undefined) break;
      found = next.at;
      if (next.value === undefined) break;
      value = next.value;
    }
    return found === undefined ? undefined : this.positionOf(found);
  }

  /** The text of line `n` (1-based), without its line break; '' past the end. */
  line(n: number): string {
    const start = this.#lineStarts[n - 1];
    if (start === undefined) return '';
    const next = this.#lineStarts[n];
    return this.#src.slice(start, next === undefined ? undefined : next - 1).replace(/\r$/, '');
  }

  offsetOf({ line, column }: Position): number | undefined {
    const lineStart = this.#lineStarts[line - 1];
    return lineStart === undefined ? undefined : lineStart + Math.max(0, column - 1);
  }

  positionOf(offset: number): Position {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.#lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.#lineStarts[low] as number) + 1 };
  }

  /**
   * The offset of the `{` of argument `index` (0-based: 1 the props, 2 the options) of the first call
   * at or after `from`, when that argument is an object literal.
   */
  objectArgumentOf(from: number, index: number): number | undefined {
    const paren = this.#src.indexOf('(', from);
    if (paren < 0) return undefined;
    let i = this.#skipBlank(paren + 1);
    for (let n = 0; n < index; n++) {
      i = this.#skipExpression(i);
      if (this.#src[i] !== ',') return undefined;
      i = this.#skipBlank(i + 1);
    }
    return this.#src[i] === '{' ? i : undefined;
  }

  /** In the object literal at `open`: where `key` is written, and its value's start when it is a literal `{` or `[`. */
  property(open: number, key: string): { at: number; value?: number } | undefined {
    if (this.#src[open] !== '{') return undefined;
    let i = this.#skipBlank(open + 1);
    let last = -1;
    while (i < this.#src.length && this.#src[i] !== '}') {
      // Stuck on what the scanner does not understand: no position rather than no end.
      if (i <= last) return undefined;
      last = i;
      const keyAt = i;
      const name = this.#readKey(i);
      if (name === undefined) {
        // A spread or a computed key: skip the entry.
        i = this.#afterEntry(i);
        continue;
      }
      i = this.#skipBlank(name.end);
      if (this.#src[i] === ':') {
        const valueAt = this.#skipBlank(i + 1);
        if (name.key === key) {
          const c = this.#src[valueAt];
          return c === '{' || c === '[' ? { at: keyAt, value: valueAt } : { at: keyAt };
        }
        i = this.#afterEntry(valueAt);
        continue;
      }
      // Shorthand `{ name }`, or a method.
      if (name.key === key) return { at: keyAt };
      i = this.#afterEntry(i);
    }
    return undefined;
  }

  /** In the array literal at `open`: where element `index` starts, and its value when a literal object or array. */
  element(open: number, index: number): { at: number; value?: number } | undefined {
    if (this.#src[open] !== '[') return undefined;
    let i = this.#skipBlank(open + 1);
    let last = -1;
    for (let n = 0; i < this.#src.length && this.#src[i] !== ']'; n++) {
      if (i <= last || this.#src.startsWith('...', i)) return undefined;
      last = i;
      if (n === index) {
        const c = this.#src[i];
        return c === '{' || c === '[' ? { at: i, value: i } : { at: i };
      }
      i = this.#afterEntry(i);
    }
    return undefined;
  }

  /** After the entry at `i` and its comma: the start of the next entry, or the closing bracket. */
  #afterEntry(i: number): number {
    SIMPLE_VALUE.lastIndex = i;
    let j = SIMPLE_VALUE.test(this.#src) ? SIMPLE_VALUE.lastIndex : this.#skipExpression(i);
    if (this.#src[j] === ',') j = this.#skipBlank(j + 1);
    return j;
  }

  #readKey(i: number): { key: string; end: number } | undefined {
    const c = this.#src.charCodeAt(i);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const end = this.#skipString(i);
      try {
        return {
          key: JSON.parse(`"${this.#src.slice(i + 1, end - 1).replace(/"/g, '\\"')}"`) as string,
          end,
        };
      } catch {
        return { key: this.#src.slice(i + 1, end - 1), end };
      }
    }
    // test, not exec: no match array for each of the thousands of keys a validate passes.
    IDENTIFIER.lastIndex = i;
    if (!IDENTIFIER.test(this.#src)) return undefined;
    return { key: this.#src.slice(i, IDENTIFIER.lastIndex), end: IDENTIFIER.lastIndex };
  }

  /** Past one expression: up to a `,` or a closing bracket at its own depth. */
  #skipExpression(i: number): number {
    const src = this.#src;
    let depth = 0;
    // The last character that is not blank: whether a `/` starts a regular expression or divides.
    let previous = -1;
    while (i < src.length) {
      PLAIN.lastIndex = i;
      if (PLAIN.test(src)) {
        previous = lastNonBlank(src, i, PLAIN.lastIndex, previous);
        i = PLAIN.lastIndex;
        if (i >= src.length) break;
      }
      const c = src.charCodeAt(i);
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) i = this.#skipString(i);
      else if (c === BACKTICK) i = this.#skipTemplate(i);
      else if (c === SLASH && (src.charCodeAt(i + 1) === SLASH || src.charCodeAt(i + 1) === STAR)) {
        i = this.#skipBlank(i);
        continue;
      } else if (c === SLASH && (previous === -1 || BEFORE_REGEX.has(previous))) i = this.#skipRegex(i);
      else if (isOpening(c)) {
        depth++;
        i++;
      } else if (isClosing(c)) {
        if (depth === 0) return i;
        depth--;
        i++;
      } else if (c === COMMA && depth === 0) return i;
      else i++;
      // Every step above moved past at least `c`: the last character of what it stepped over.
      if (c > SPACE) previous = src.charCodeAt(i - 1);
    }
    return i;
  }

  /**
   * Past the regular expression literal at `i` and its flags; past the `/` alone when it is none
   * (no closing `/` on its line).
   */
  #skipRegex(i: number): number {
    const src = this.#src;
    let inClass = false;
    for (let j = i + 1; j < src.length; j++) {
      const c = src.charCodeAt(j);
      if (c === BACKSLASH) j++;
      else if (c === NEWLINE) break;
      else if (c === OPEN_BRACKET) inClass = true;
      else if (c === CLOSE_BRACKET) inClass = false;
      else if (c === SLASH && !inClass) {
        FLAGS.lastIndex = j + 1;
        FLAGS.exec(src);
        return FLAGS.lastIndex;
      }
    }
    return i + 1;
  }

  /** Past blanks and comments. */
  #skipBlank(i: number): number {
    BLANKS.lastIndex = i;
    BLANKS.test(this.#src);
    return BLANKS.lastIndex;
  }

  /** Past the string at `i`: its closing quote is the first one after it not escaped by a backslash. */
  #skipString(i: number): number {
    const src = this.#src;
    const quote = src.charAt(i);
    for (let q = src.indexOf(quote, i + 1); q !== -1; q = src.indexOf(quote, q + 1)) {
      let backslashes = 0;
      while (src.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return q + 1;
    }
    return src.length;
  }

  #skipTemplate(i: number): number {
    const src = this.#src;
    for (let j = i + 1; j < src.length; j++) {
      TEMPLATE_TEXT.lastIndex = j;
      if (TEMPLATE_TEXT.test(src)) j = TEMPLATE_TEXT.lastIndex;
      const c = src.charCodeAt(j);
      if (c === BACKSLASH) j++;
      else if (c === BACKTICK) return j + 1;
      else if (c === DOLLAR && src.charCodeAt(j + 1) === OPEN_BRACE) {
        j = this.#skipExpression(j + 2);
      }
    }
    return src.length;
  }
}

/**
 * The last character of `src` from `start` to `end` that is not blank (as the scanner counts
 * blanks: ASCII space and control characters), or `previous` when there is none.
 */
function lastNonBlank(src: string, start: number, end: number, previous: number): number {
  for (let j = end - 1; j >= start; j--) {
    const c = src.charCodeAt(j);
    if (c > SPACE) return c;
  }
  return previous;
}

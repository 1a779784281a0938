/**
 * The text of `JSON.stringify(value, null, 2)`, in pieces: for what is too large to hold as one
 * string beside the data it is made from (a deploy's `--json` envelope of 30,000 operations is
 * 67 MB; its state file, 18 MB). Plain objects are walked `depth` levels deep: below that, a
 * member is stringified whole. An array that is the value or a member of a walked object, at any
 * of those levels or just below them, is given out as its items, each stringified whole, joined in
 * runs of at least `RUN_CHARS` characters. A value that cannot be written (a BigInt, a cycle)
 * throws part way, after the pieces before it.
 */
export function jsonPieces(value: unknown, options: JsonPiecesOptions = {}): Generator<string> {
  const { depth = 3, escapeText = (json: string) => json } = options;
  return memberPieces(jsonValueOf(value, ''), value, '', depth, '', escapeText);
}

/**
 * A value whose JSON is made from it only as it is written (by `toJSON`), and not kept: an item of
 * something written out once (by `jsonPieces` or `JSON.stringify`), so that the JSON of every item
 * is never held at once beside the items themselves.
 */
export class JsonWhenWritten<T, J> {
  readonly #value: T;
  readonly #toJson: (value: T) => J;

  constructor(value: T, toJson: (value: T) => J) {
    this.#value = value;
    this.#toJson = toJson;
  }

  toJSON(): J {
    return this.#toJson(this.#value);
  }
}

export interface JsonPiecesOptions {
  /**
   * How many levels of plain objects are walked before a member is stringified whole (an array
   * there still comes in runs of its items). @default 3
   */
  depth?: number;
  /** Rewrites each piece of JSON text as it is made (escapes that read back as the same data). */
  escapeText?: (json: string) => string;
}

/**
 * How long a run of an array's items gets before it is given out: long enough that 15,000 items
 * are not 15,000 pieces (each passed up through every level), short enough that no piece holds a
 * large share of the text.
 */
const RUN_CHARS = 64 * 1024;

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** What JSON.stringify writes for `value` under `key`: the result of its `toJSON`, if it has one. */
function jsonValueOf(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

const hasToJSON = (value: unknown) =>
  typeof (value as { toJSON?: unknown } | null | undefined)?.toJSON === 'function';

/** `JSON.stringify(value, null, 2)` as it reads at `indent`, escaped. */
function stringified(value: unknown, indent: string, escapeText: (json: string) => string): string {
  const json = JSON.stringify(value, null, 2) ?? 'null';
  return escapeText(indent === '' ? json : json.replaceAll('\n', `\n${indent}`));
}

/**
 * The member `key` of its holder, `raw`, whose `toJSON` gave `value` (`jsonValueOf`). No `toJSON`
 * of `value` is called again: one that has its own (a toJSON that gives a Date) is stringified as
 * JSON.stringify does it.
 */
function* memberPieces(
  value: unknown,
  raw: unknown,
  key: string,
  depth: number,
  indent: string,
  escapeText: (json: string) => string,
): Generator<string> {
  if (value !== raw && hasToJSON(value)) yield stringifiedAsGiven(value, key, indent, escapeText);
  else yield* piecesOf(value, depth, indent, escapeText);
}

/**
 * `value`, which a `toJSON` gave, stringified without calling its own `toJSON`: in a holder whose
 * member's `toJSON` gives it, the holder's braces and indent taken off.
 */
function stringifiedAsGiven(
  value: unknown,
  key: string,
  indent: string,
  escapeText: (json: string) => string,
): string {
  const json = JSON.stringify({ [key]: { toJSON: () => value } }, null, 2);
  const head = `{\n  ${JSON.stringify(key)}: `;
  const text = json.slice(head.length, -2).replaceAll('\n  ', `\n${indent}`);
  return escapeText(text);
}

/** `value` after its own `toJSON` (its holder called it): only its members' are called here. */
function* piecesOf(
  value: unknown,
  depth: number,
  indent: string,
  escapeText: (json: string) => string,
): Generator<string> {
  // An array in runs of its items even below the walked levels: one member can be most of the text
  // (the routes a plan of 20,000 constructs changes, 3.7 MB, were one string and its indented copy).
  // Its items, and what is inside them, are stringified whole.
  if (Array.isArray(value)) {
    yield* itemsInRuns(value, indent, escapeText);
    return;
  }
  const walked =
    depth > 0 &&
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype;
  if (!walked) {
    yield stringified(value, indent, escapeText);
    return;
  }
  const inner = `${indent}  `;
  let first = true;
  for (const key of Object.keys(value)) {
    const raw = (value as Record<string, unknown>)[key];
    const item = jsonValueOf(raw, key);
    if (omitted(item)) continue;
    yield `${first ? '{' : ','}\n${inner}${stringified(key, '', escapeText)}: `;
    first = false;
    yield* memberPieces(item, raw, key, depth - 1, inner, escapeText);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/**
 * An array, its items stringified one at a time and given out in runs of at least `RUN_CHARS`.
 * An item's `toJSON` is called only as it is written, so an array of objects that make their JSON
 * on demand never holds all of it at once.
 */
function* itemsInRuns(
  items: readonly unknown[],
  indent: string,
  escapeText: (json: string) => string,
): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  const inner = `${indent}  `;
  let run = '';
  // Its length read once, as JSON.stringify reads it: an item's toJSON could add to it.
  const length = items.length;
  for (let i = 0; i < length; i++) {
    let text: string;
    try {
      const raw = items[i];
      const item = jsonValueOf(raw, String(i));
      text =
        item !== raw && hasToJSON(item)
          ? stringifiedAsGiven(item, String(i), inner, escapeText)
          : stringified(omitted(item) ? null : item, inner, escapeText);
    } catch (e) {
      // What came before a value that cannot be written is given out first.
      if (run !== '') yield run;
      throw e;
    }
    run += `${i === 0 ? '[' : ','}\n${inner}${text}`;
    if (run.length >= RUN_CHARS) {
      yield run;
      run = '';
    }
  }
  yield `${run}\n${indent}]`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * `pieces` joined in runs of at least 64 KB (the last shorter, none empty), for writes: a write
 * per piece is a system call per piece, one string of everything holds it all at once. A
 * character that two pieces split (a surrogate pair) goes whole into the next run, so that each
 * run encodes alone. When making a piece fails, the run before it is still given out, then the
 * failure goes on.
 */
export function* textRuns(pieces: Iterable<string>): Generator<string> {
  let pending = '';
  try {
    for (const piece of pieces) {
      pending += piece;
      if (pending.length >= RUN_CHARS) {
        const whole = isHighSurrogate(pending.charCodeAt(pending.length - 1))
          ? pending.length - 1
          : pending.length;
        yield pending.slice(0, whole);
        pending = pending.slice(whole);
      }
    }
  } finally {
    if (pending !== '') yield pending;
  }
}

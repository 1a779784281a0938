/** A position in a source file, 1-based. */
export interface OriginalPosition {
  source: string;
  line: number;
  column: number;
}

/** Where a generated position came from, by a source map (v3). */
export interface PositionMap {
  /** 1-based line and column in the generated file; undefined where nothing maps. */
  lookup(line: number, column: number): OriginalPosition | undefined;
}

interface SourceMapPayload {
  sources?: unknown;
  mappings?: unknown;
}

/**
 * A source map read a line at a time. Every finding and diagnostic of a large project looks up a
 * position, in maps of tens of MB: node:module's SourceMap (and @jridgewell/trace-mapping alike)
 * decode every segment of the map into an object or array first, 400 ms (230 ms) for the 9.7 MB of
 * mappings of 20,000 constructs. This keeps only where each line starts and the running values
 * there, in typed arrays (one pass, no allocation per segment), and decodes the one line a lookup
 * asks for. For the maps esbuild writes (segments in order of column within a line) it answers as
 * node:module's `findOrigin` does, which the tests compare it with: the last segment at or before
 * the position, on that line or an earlier one, shifted by the distance.
 *
 * `payload`: the map, as JSON text (or its UTF-8 bytes) or parsed; read on the first lookup (a
 * valid project without file props may never need one). Its mappings are kept as bytes, outside
 * the JavaScript heap (24 MB for 50,000 constructs). `resolveSource`: turns a name of `sources`
 * into a path.
 * `index`: the map's `mappingsIndex`, when it was made before (a cached build keeps it): the pass
 * over the whole map is then skipped (120 ms for 20,000 constructs). One that does not fit the
 * map is not used.
 */
export function positionMap(
  payload: object | string | Uint8Array,
  resolveSource: (source: string) => string = (s) => s,
  index?: Int32Array,
): PositionMap {
  let unread: object | string | Uint8Array | undefined = payload;
  let lines: LineIndex | undefined;
  return {
    lookup(line, column) {
      if (lines === undefined) {
        const map = readMap(unread as object | string | Uint8Array);
        lines = new LineIndex(map.mappings, map.sources.map(resolveSource), index);
        // The index keeps what it needs (the mappings' bytes); the rest of the map can go.
        unread = undefined;
      }
      return lines.lookup(line, column);
    },
  };
}

/**
 * Where each generated line of a source map starts in its mappings, and the running source, line
 * and column there: what `positionMap` needs besides the map, made in one pass over it. Kept with
 * a cached build so that a run that finds it unchanged does not make it again.
 */
export function mappingsIndex(payload: object | string | Uint8Array): Int32Array {
  return indexLines(readMap(payload).mappings);
}

/** A source map's sources, and its mappings as bytes (UTF-8: all but a damaged map's are ASCII). */
interface ReadMap {
  mappings: Uint8Array;
  sources: string[];
}

function readMap(payload: object | string | Uint8Array): ReadMap {
  if (payload instanceof Uint8Array) {
    const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    // The mappings are nearly all of a map: they are cut out as they are, and the rest parsed.
    const cut = mappingsRange(bytes);
    if (cut !== undefined) {
      const rest: unknown = JSON.parse(
        Buffer.concat([bytes.subarray(0, cut.start), bytes.subarray(cut.end)]).toString('utf8'),
      );
      if (rest !== null && typeof rest === 'object' && (rest as SourceMapPayload).mappings === '')
        return { mappings: bytes.subarray(cut.start, cut.end), sources: sourcesOf(rest) };
    }
    return fromParsed(JSON.parse(bytes.toString('utf8')));
  }
  return fromParsed(typeof payload === 'string' ? JSON.parse(payload) : payload);
}

function fromParsed(map: SourceMapPayload): ReadMap {
  const mappings = typeof map.mappings === 'string' ? map.mappings : '';
  return { mappings: Buffer.from(mappings, 'utf8'), sources: sourcesOf(map) };
}

/** `sourceRoot` is not read, as node:module's SourceMap does not (esbuild writes none). */
const sourcesOf = (map: SourceMapPayload): string[] =>
  (Array.isArray(map.sources) ? map.sources : []).map(String);

const MAPPINGS_KEY = Buffer.from('"mappings"');
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Where the mappings' text is in a map's JSON (between its quotes); undefined when it is not
 * found as a plain string (then the map is parsed whole). What is left must parse with an empty
 * `mappings`, or the cut was not the mappings.
 */
function mappingsRange(bytes: Buffer): { start: number; end: number } | undefined {
  const key = bytes.indexOf(MAPPINGS_KEY);
  if (key < 0) return undefined;
  let i = key + MAPPINGS_KEY.length;
  const blank = () => {
    while (bytes[i] === 32 || bytes[i] === 10 || bytes[i] === 13 || bytes[i] === 9) i++;
  };
  blank();
  if (bytes[i] !== 58) return undefined;
  i++;
  blank();
  if (bytes[i] !== QUOTE) return undefined;
  const start = i + 1;
  const end = bytes.indexOf(QUOTE, start);
  if (end < 0 || bytes.subarray(start, end).includes(BACKSLASH)) return undefined;
  return { start, end };
}

/** The value of each base64 digit by its character code; 64 for anything else. */
const BASE64_VALUES = (() => {
  const values = new Uint8Array(128).fill(64);
  const digits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < digits.length; i++) values[digits.charCodeAt(i)] = i;
  return values;
})();

const COMMA = 44;
const SEMICOLON = 59;

/** Reads the VLQ numbers of a mappings string from `at`; `at` moves past each one. */
class VlqReader {
  at = 0;
  constructor(readonly text: Uint8Array) {}

  /** At the end of a line or of the text: no more fields in this segment. */
  segmentEnds(): boolean {
    const c = this.text[this.at];
    return c === undefined || c === COMMA || c === SEMICOLON;
  }

  /**
   * The next number; a character outside base64 ends it (a damaged map maps less, and never
   * loops). Numbers of up to 30 bits, as positions in a file of up to a billion lines are.
   */
  next(): number {
    const text = this.text;
    let value = 0;
    let shift = 0;
    let at = this.at;
    for (;;) {
      const code = text[at] ?? 128;
      const digit = code < 128 ? (BASE64_VALUES[code] as number) : 64;
      if (digit === 64) break;
      at++;
      value |= (digit & 31) << shift;
      shift += 5;
      if ((digit & 32) === 0 || shift > 30) break;
    }
    this.at = at;
    return value & 1 ? -(value >>> 1) : value >>> 1;
  }
}

/** One segment of a line: where it starts in the generated line and where it came from. */
interface Segment {
  generatedColumn: number;
  /** -1 when the segment maps to nothing. */
  source: number;
  line: number;
  column: number;
}

/**
 * A mappings index: its line count, then per generated line where it starts in the mappings, then
 * per line the running source, line and column at its start (they carry over from line to line;
 * the generated column starts again at 0 on each).
 */
function indexLines(mappings: Uint8Array): Int32Array {
  const lineCount = countLines(mappings);
  const index = new Int32Array(1 + 4 * lineCount);
  index[0] = lineCount;
  const reader = new VlqReader(mappings);
  const deltas = new Int32Array(4);
  let source = 0;
  let line = 0;
  let column = 0;
  for (let l = 0; l < lineCount; l++) {
    index[1 + l] = reader.at;
    const running = 1 + lineCount + l * 3;
    index[running] = source;
    index[running + 1] = line;
    index[running + 2] = column;
    for (;;) {
      const c = mappings[reader.at];
      if (c === undefined) break;
      if (c === SEMICOLON) {
        reader.at++;
        break;
      }
      if (c === COMMA) {
        reader.at++;
        continue;
      }
      if (readSegment(reader, deltas)) {
        source += deltas[1] as number;
        line += deltas[2] as number;
        column += deltas[3] as number;
      }
    }
  }
  return index;
}

/**
 * Whether `index` can be the index of `mappings`: as many lines, each starting just after the
 * line break before it. The running values are not checked (that is a pass over the whole map):
 * a kept build's index is covered by its cache file's hash with the rest.
 */
function fits(index: Int32Array, mappings: Uint8Array): boolean {
  const lineCount = countLines(mappings);
  if (index.length !== 1 + 4 * lineCount || index[0] !== lineCount) return false;
  for (let l = 0, start = 0; l < lineCount; l++) {
    if (index[1 + l] !== start) return false;
    start = mappings.indexOf(SEMICOLON, start) + 1;
  }
  return true;
}

/** The mappings of a source map, indexed by generated line. */
class LineIndex {
  readonly #mappings: Uint8Array;
  readonly #sources: string[];
  readonly #lineCount: number;
  /** Per generated line, where it starts in `mappings`. */
  readonly #starts: Int32Array;
  /** Per generated line, the running source, line and column at its start. */
  readonly #running: Int32Array;

  constructor(mappings: Uint8Array, sources: string[], made?: Int32Array) {
    const index = made !== undefined && fits(made, mappings) ? made : indexLines(mappings);
    const lineCount = index[0] as number;
    this.#mappings = mappings;
    this.#sources = sources;
    this.#lineCount = lineCount;
    this.#starts = index.subarray(1, 1 + lineCount);
    this.#running = index.subarray(1 + lineCount);
  }

  /** 1-based, as `PositionMap.lookup`. */
  lookup(line: number, column: number): OriginalPosition | undefined {
    if (line < 1) return undefined;
    // The last segment at or before (line, column), 0-based, as node:module's findEntry finds
    // it: on that line, else the last one of the nearest line above that has any.
    let l = Math.min(line - 1, this.#lineCount - 1);
    let found = l === line - 1 ? this.#segmentAt(l, column - 1) : undefined;
    if (found === undefined) {
      if (l === line - 1) l--;
      for (; l >= 0 && found === undefined; l--) found = this.#segmentAt(l);
      l++;
    }
    if (found === undefined || found.source < 0) return undefined;
    const file = this.#sources[found.source];
    if (file === undefined) return undefined;
    return {
      source: file,
      line: found.line + (line - l),
      column: found.column + (column - found.generatedColumn),
    };
  }

  /**
   * The last segment of generated line `l` (0-based) that starts at or before `column` (0-based;
   * the whole line when undefined), decoded only that far; undefined when there is none.
   */
  #segmentAt(l: number, column?: number): Segment | undefined {
    const mappings = this.#mappings;
    const reader = new VlqReader(mappings);
    reader.at = this.#starts[l] ?? 0;
    const deltas = new Int32Array(4);
    let generatedColumn = 0;
    let source = this.#running[l * 3] ?? 0;
    let line = this.#running[l * 3 + 1] ?? 0;
    let sourceColumn = this.#running[l * 3 + 2] ?? 0;
    let found = false;
    let mapped = false;
    for (;;) {
      const c = mappings[reader.at];
      if (c === undefined || c === SEMICOLON) break;
      if (c === COMMA) {
        reader.at++;
        continue;
      }
      const hasSource = readSegment(reader, deltas);
      const next = generatedColumn + (deltas[0] as number);
      if (column !== undefined && next > column) break;
      generatedColumn = next;
      if (hasSource) {
        source += deltas[1] as number;
        line += deltas[2] as number;
        sourceColumn += deltas[3] as number;
      }
      found = true;
      mapped = hasSource;
    }
    if (!found) return undefined;
    return { generatedColumn, source: mapped ? source : -1, line, column: sourceColumn };
  }
}

/**
 * Read the segment at `reader` into `deltas` (generated column, source, line, column); whether it
 * maps to a source (a segment of one field maps to nothing). A character outside base64 is
 * skipped rather than stopped on: a damaged map maps less, and is never read forever.
 */
function readSegment(reader: VlqReader, deltas: Int32Array): boolean {
  const before = reader.at;
  deltas[0] = reader.next();
  let hasSource = false;
  if (!reader.segmentEnds()) {
    deltas[1] = reader.next();
    deltas[2] = reader.next();
    deltas[3] = reader.next();
    if (!reader.segmentEnds()) reader.next();
    hasSource = true;
  }
  if (reader.at === before) reader.at++;
  return hasSource;
}

/** How many generated lines the mappings describe. */
function countLines(mappings: Uint8Array): number {
  let lines = 1;
  for (let i = mappings.indexOf(SEMICOLON); i !== -1; i = mappings.indexOf(SEMICOLON, i + 1)) lines++;
  return lines;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGIT[BASE64.charCodeAt(i)] = i;

/** [generatedColumn, sourceIndex, originalLine, originalColumn], all 0-based. */
type Segment = [number, number, number, number];

export interface OriginalPosition {
  source: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
}

/**
 * A source map (v3) reader: decodes the mappings once, then answers "where did this generated
 * position come from". Small on purpose: the loader needs only this lookup.
 */
export class SourceMap {
  readonly #sources: string[];
  readonly #lines: Segment[][] = [];

  /** `sources` are resolved by `resolveSource` (e.g. to absolute paths). */
  constructor(
    map: { sources: string[]; mappings: string },
    resolveSource: (source: string) => string = (s) => s,
  ) {
    this.#sources = map.sources.map(resolveSource);
    this.#decode(map.mappings);
  }

  #decode(mappings: string): void {
    let line: Segment[] = [];
    let source = 0;
    let originalLine = 0;
    let originalColumn = 0;
    let generatedColumn = 0;
    const fields = [0, 0, 0, 0, 0];
    let field = 0;
    let value = 0;
    let shift = 0;
    const flush = () => {
      if (field === 0) return;
      generatedColumn += fields[0] as number;
      if (field >= 4) {
        source += fields[1] as number;
        originalLine += fields[2] as number;
        originalColumn += fields[3] as number;
        line.push([generatedColumn, source, originalLine, originalColumn]);
      }
      field = 0;
    };
    for (let i = 0; i < mappings.length; i++) {
      const c = mappings.charCodeAt(i);
      if (c === 59 /* ; */) {
        flush();
        this.#lines.push(line);
        line = [];
        generatedColumn = 0;
        continue;
      }
      if (c === 44 /* , */) {
        flush();
        continue;
      }
      const digit = DIGIT[c] ?? -1;
      if (digit < 0) throw new Error(`invalid source map: unexpected character "${mappings[i]}"`);
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
      } else {
        const negative = value & 1;
        value >>>= 1;
        fields[field++] = negative ? -value : value;
        value = 0;
        shift = 0;
      }
    }
    flush();
    this.#lines.push(line);
  }

  /** The original position of a 1-based generated line and column, or undefined. */
  lookup(line: number, column: number): OriginalPosition | undefined {
    const segments = this.#lines[line - 1];
    if (segments === undefined || segments.length === 0) return undefined;
    const col = column - 1;
    let lo = 0;
    let hi = segments.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((segments[mid] as Segment)[0] <= col) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const segment = segments[found === -1 ? 0 : found] as Segment;
    const source = this.#sources[segment[1]];
    if (source === undefined) return undefined;
    return { source, line: segment[2] + 1, column: segment[3] + 1 };
  }
}

import type { PlanJson } from '@monitor/engine';
import { type Io, writeInPieces } from './io.js';

/** Version of the `--json` envelope. 1 had a shape per command; 2 is one envelope for all. */
export const JSON_FORMAT_VERSION = 2;

export interface ErrorJson {
  code: string;
  message: string;
  hint?: string;
  /** More lines: what moved under a stale plan, what a refusal needs. */
  details?: string[];
}

/** What every command prints with `--json`, on stdout, whether it succeeded or not. */
export interface Envelope {
  formatVersion: typeof JSON_FORMAT_VERSION;
  command: string;
  ok: boolean;
  exitCode: number;
  project: string | null;
  /** The environment of the run, when the config defines environments. */
  environment: string | null;
  account: { id: string; local: boolean } | null;
  diagnostics: Record<string, unknown>[];
  plan: PlanJson | null;
  result: Record<string, unknown> | null;
  error: ErrorJson | null;
}

/** What a run has to say, filled in as it goes; printed once at the end with `--json`. */
export class Output {
  command: string;
  json: boolean;
  project: string | null = null;
  environment: string | null = null;
  account: Envelope['account'] = null;
  /** Filled in with --json only (as `plan`): nothing else reads them. */
  diagnostics: Record<string, unknown>[] = [];
  plan: PlanJson | null = null;
  result: Record<string, unknown> | null = null;
  error: ErrorJson | null = null;

  constructor(command: string, json: boolean) {
    this.command = command;
    this.json = json;
  }

  envelope(exitCode: number): Envelope {
    return {
      formatVersion: JSON_FORMAT_VERSION,
      command: this.command,
      ok: exitCode === 0 || (exitCode === 2 && this.error === null),
      exitCode,
      project: this.project,
      environment: this.environment,
      account: this.account,
      diagnostics: this.diagnostics,
      plan: this.plan,
      result: this.result,
      error: this.error,
    };
  }

  print(io: Io, exitCode: number): void {
    if (!this.json) return;
    // In pieces: the envelope of a deploy of 30,000 resources is 67 MB of JSON, which as one
    // string (and its copy in UTF-8 for the write) cost a third of the run's memory.
    writeInPieces(io.stdout, asciiSafeJsonChunks(this.envelope(exitCode)));
    io.stdout('\n');
  }
}

const TERMINAL_ACTS_ON = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;
/** All of them are outside printable ASCII; JSON.stringify escapes the C0 controls itself. */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e\n]/;

/** `JSON.stringify` of `value`, with the characters a terminal acts on as `\u` escapes. */
function safeStringify(value: unknown, indent: string): string {
  const json = (JSON.stringify(value, null, 2) ?? 'null').replaceAll('\n', `\n${indent}`);
  // The Unicode-aware scan costs 3× the plain one, and most JSON is printable ASCII.
  if (!BEYOND_PRINTABLE_ASCII.test(json)) return json;
  return json.replace(TERMINAL_ACTS_ON, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** What JSON.stringify writes for `value` under `key`: the result of its `toJSON`, if it has one. */
function jsonValueOf(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, key) : value;
}

/**
 * JSON for stdout, which is often a terminal: the characters a terminal acts on that
 * `JSON.stringify` leaves as they are (DEL, C1 controls, bidi and zero-width characters, line
 * separators) written as `\u` escapes, which read back as the same data. The text is that of
 * `JSON.stringify(value, null, 2)`, in pieces: the first `depth` levels of plain objects are
 * walked, and what is below them is stringified a value at a time, an array's items written in
 * runs of at least `RUN_CHARS` characters. A value that cannot be written (a BigInt, a cycle) throws part
 * way, after the pieces before it.
 */
export function asciiSafeJsonChunks(value: unknown, depth = 3): Generator<string> {
  return chunksOf(jsonValueOf(value, ''), depth, '');
}

/**
 * How long a run of an array's items gets before it is written: long enough that 15,000 findings
 * are not 15,000 pieces (walked a key at a time, each passed up through every level), short
 * enough that no piece holds a large share of the output.
 */
const RUN_CHARS = 64 * 1024;

/** `value` after its own `toJSON` (its holder called it): only its members' are called here. */
function* chunksOf(value: unknown, depth: number, indent: string): Generator<string> {
  const walked =
    depth > 0 &&
    typeof value === 'object' &&
    value !== null &&
    (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
  if (!walked) {
    yield safeStringify(value, indent);
    return;
  }
  if (Array.isArray(value)) {
    yield* itemsInRuns(value, indent);
    return;
  }
  const inner = `${indent}  `;
  let first = true;
  for (const key of Object.keys(value)) {
    const item = jsonValueOf((value as Record<string, unknown>)[key], key);
    if (omitted(item)) continue;
    yield `${first ? '{' : ','}\n${inner}${safeStringify(key, '')}: `;
    first = false;
    yield* chunksOf(item, depth - 1, inner);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/** An array, its items stringified one at a time and written in runs of at least `RUN_CHARS`. */
function* itemsInRuns(items: readonly unknown[], indent: string): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  const inner = `${indent}  `;
  let run = '';
  for (let i = 0; i < items.length; i++) {
    let text: string;
    try {
      const item = jsonValueOf(items[i], String(i));
      text = safeStringify(omitted(item) ? null : item, inner);
    } catch (e) {
      // What came before a value that cannot be written is written first, as it always was.
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

/** `asciiSafeJsonChunks` as one string. */
export function asciiSafeJson(value: unknown): string {
  return [...asciiSafeJsonChunks(value)].join('');
}

/** What a command gets besides its arguments. */
export interface RunContext {
  io: Io;
  out: Output;
}

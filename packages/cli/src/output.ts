import { jsonPieces } from '@monitor/api/json-pieces';
import type { PlanJson, PrintedPlanJson } from '@monitor/engine';
import { EXIT, type ExitCode } from './exit-codes.js';
import { type Io, writeInPiecesDrained } from './io.js';
import type { PlanFacts } from './workspace-summary.js';

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
  plan: PlanJson | PrintedPlanJson | null;
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
  /** The plan as `--json` prints it: each operation's JSON made as it is written. */
  plan: PlanJson | PrintedPlanJson | null = null;
  result: Record<string, unknown> | null = null;
  error: ErrorJson | null = null;
  /** What a workspace run's summary says of the plan this run made, with or without --json. Not printed. */
  planFacts: PlanFacts | null = null;

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

  /**
   * Print the envelope (with `--json`); the exit code after it. The envelope is made as it is
   * written (a deploy of 30,000 resources prints 67 MB of JSON, which as one string, and its copy
   * in UTF-8 for the write, cost a third of the run's memory), so a part that cannot be made (an
   * operation's JSON) stops it part way: that is said on stderr, and the exit code is an error.
   * Each 64 KB is written once stdout took the one before: a pipe read slowly would otherwise
   * hold all of it in memory (200 MB at the end of a deploy of 30,000 resources).
   */
  async print(io: Io, exitCode: ExitCode): Promise<ExitCode> {
    if (!this.json) return exitCode;
    try {
      await writeInPiecesDrained(io, asciiSafeJsonChunks(this.envelope(exitCode)));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Loaded here, on failure only, as main's report does: `--help` loads nothing of the engine.
      const { escapeTerminal } = await import('@monitor/engine/escape');
      io.stderr(`\nerror: the --json output stopped part way: ${escapeTerminal(message)}\n`);
      return exitCode === EXIT.ok ? EXIT.error : exitCode;
    }
    io.stdout('\n');
    return exitCode;
  }
}

const TERMINAL_ACTS_ON = /[\u007f-\u009f\p{Cf}\u2028\u2029]/gu;
/** All of them are outside printable ASCII; JSON.stringify escapes the C0 controls itself. */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e\n]/;

/** JSON text with the characters a terminal acts on as `\u` escapes. */
function escapeForTerminal(json: string): string {
  // The Unicode-aware scan costs 3× the plain one, and most JSON is printable ASCII.
  if (!BEYOND_PRINTABLE_ASCII.test(json)) return json;
  return json.replace(TERMINAL_ACTS_ON, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/**
 * JSON for stdout, which is often a terminal: the characters a terminal acts on that
 * `JSON.stringify` leaves as they are (DEL, C1 controls, bidi and zero-width characters, line
 * separators) written as `\u` escapes, which read back as the same data. The text is that of
 * `JSON.stringify(value, null, 2)`, in pieces (`jsonPieces`): the first `depth` levels are walked.
 */
export function asciiSafeJsonChunks(value: unknown, depth = 3): Generator<string> {
  return jsonPieces(value, { depth, escapeText: escapeForTerminal });
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

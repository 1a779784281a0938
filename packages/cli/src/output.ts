import type { PlanJson } from '@monitor/engine';
import type { Io } from './io.js';

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
    if (this.json) io.stdout(`${asciiSafeJson(this.envelope(exitCode))}\n`);
  }
}

/**
 * JSON for stdout, which is often a terminal: the characters a terminal acts on that
 * `JSON.stringify` leaves as they are (DEL, C1 controls, bidi and zero-width characters, line
 * separators) written as `\u` escapes, which read back as the same data.
 */
export function asciiSafeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\p{Cf}\u2028\u2029]/gu, (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/** What a command gets besides its arguments. */
export interface RunContext {
  io: Io;
  out: Output;
}

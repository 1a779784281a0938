import { EXIT, type ExitCode } from './exit-codes.js';
import { type Io, paint } from './io.js';
import type { ErrorJson, Output } from './output.js';
import { readableStack } from './readable-stack.js';
import { forPeople, isSystemError } from './system-error.js';

/** What the CLI adds to an error's hint: the flags that help, which the packages do not know. */
const FLAG_HINTS: Record<string, string> = {
  locked: 'to wait for it, pass --lock-timeout SECONDS',
  rate_limited: 'lower --parallelism or --rate-limit to match the account',
  timeout: 'to wait longer for each answer, pass --timeout SECONDS',
  config_not_found: 'name the config file with --config PATH',
  environment_required: 'pass --env NAME, or set MONITOR_ENV',
};

/** Any error with a stable code, from whichever package (or copy of it) threw it. */
function describe(error: unknown): ErrorJson & { stack?: string } {
  if (error !== null && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') {
    const e = error as {
      code: string;
      message: string;
      hint?: string;
      stack?: string;
      diagnostics?: unknown;
    };
    if (/^[a-z_]+$/.test(e.code)) {
      const hint = [e.hint, FLAG_HINTS[e.code]].filter((h) => h !== undefined).join('; ');
      const details = problemsOf(e.diagnostics);
      return {
        code: e.code,
        message: e.message,
        ...(hint === '' ? {} : { hint }),
        ...(details.length === 0 ? {} : { details }),
      };
    }
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { code: 'internal', message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
}

/**
 * What a project that does not load says, one line each (at most 20): a command that only reads
 * the config (an account command, state, whoami) has no diagnostics of its own to print them.
 */
function problemsOf(diagnostics: unknown): string[] {
  if (!Array.isArray(diagnostics)) return [];
  const lines = diagnostics
    .filter((d): d is { message: string } => typeof (d as { message?: unknown })?.message === 'string')
    .map((d) => d.message);
  return lines.length > 20 ? [...lines.slice(0, 20), `…and ${lines.length - 20} more`] : lines;
}

/** Errors whose exit code is not 1. */
export const EXIT_BY_ERROR_CODE: Record<string, ExitCode> = {
  invalid_project: EXIT.invalid,
  process_exit: EXIT.invalid,
  locked: EXIT.locked,
  refused: EXIT.refused,
  stale_state: EXIT.stalePlan,
  interrupted: EXIT.interrupted,
  invalid_workspace: EXIT.invalid,
  project_cycle: EXIT.invalid,
};

/** Print an error once, with its hint; the only place that turns errors into exit codes. */
export async function report(thrown: unknown, io: Io, out: Output): Promise<ExitCode> {
  // Said for people, with the file when it is known, not as Node's bare message and a stack.
  const error = isSystemError(thrown) ? await forPeople(thrown) : thrown;
  const { stack, ...json } = describe(error);
  out.error = json;
  const code = EXIT_BY_ERROR_CODE[json.code] ?? EXIT.error;
  if (out.json) return code;
  const p = paint(io.color);
  // Loaded here, on failure only: `--help` and `--version` load nothing of the engine.
  const { escapeTerminal } = await import('@monitor/engine/escape');
  const shown = (text: string) => escapeTerminal(text, { multiline: true });
  io.stderr(`${p.red('error')}: ${shown(json.message)}\n`);
  for (const detail of json.details ?? []) io.stderr(`  ${shown(detail)}\n`);
  if (json.hint !== undefined) io.stderr(`${p.dim('hint')}: ${shown(json.hint)}\n`);
  if (stack !== undefined) io.stderr(`${p.dim(shown(readableStack(stack)))}\n`);
  return code;
}

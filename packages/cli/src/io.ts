import { styleText } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { textRuns } from '@monitor/api/json-pieces';
import type { Style } from '@monitor/engine';

/** Moves to the start of the terminal's line and erases it: what a live progress line is redrawn with. */
export const CLEAR_LINE = '\r\u001b[K';

/** Where a command reads and writes: the process by default, buffers in tests. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour only on a TTY, and never with NO_COLOR. */
  color: boolean;
  /** A person at a terminal: prompts and a live progress line. False in CI and without a TTY. */
  interactive: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The terminal's width that tables fit in; undefined when output is piped (never cut). */
  columns?: number | undefined;
  /**
   * Ask a question on the terminal; only called when `interactive`. Undefined when the person
   * gave no answer: Ctrl-C, or Ctrl-D (end of input).
   */
  prompt?: (question: string) => Promise<string | undefined>;
  /**
   * Resolves once stdout has taken what was written to it: a pipe whose reader is slower than
   * monitor holds the rest in memory meanwhile (the 67 MB `--json` envelope of a large deploy).
   * Absent where writes are taken at once (tests' buffers).
   */
  drained?: () => Promise<void>;
  /**
   * Trap Ctrl-C/SIGTERM while long work runs: the first aborts the signal (finish in-flight work,
   * start nothing new) and prints `notice` (a function when what Ctrl-C does changes as the command
   * goes on), a second one exits at once. Call `release` when done.
   */
  trapInterrupts?: (notice?: string | (() => string)) => { signal: AbortSignal; release: () => void };
  /**
   * For the rest of the process, have V8 collect the old generation sooner (`holdLessGarbage`).
   * Called once a deploy or destroy is about to apply; set only by the CLI's own process (bin.ts).
   */
  holdLessGarbage?: () => void;
}

/**
 * The V8 flag a long apply runs with, undefined when the person chose V8's heap growth themselves
 * (`node --heap-growing-percent=…`; Node refuses it in NODE_OPTIONS). Left to itself, V8 lets the
 * old generation grow by a factor it picks, up to four, past what outlived the last full
 * collection before it collects again; a deploy makes garbage for minutes (requests, answers,
 * state snapshots), and what of it reaches the old generation stays until then.
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return undefined;
  return '--heap-growing-percent=50';
}

/**
 * `Io.holdLessGarbage` for the CLI's own process: the flag above, then one full collection, since
 * the flag only changes the limit V8 sets at its next one, and the load leaves much to collect (on
 * Node 22, 175 MB of old generation at a deploy's first create, 123 MB of it live). A deploy of
 * 20,000 constructs peaked at 403–430 MB on Node 20 and 472–479 MB on Node 22 without, against
 * 376–380 and 383–396 MB with, for 3–8 % more CPU. Called once the project is loaded: a V8 flag changed before would
 * change the hash that Node's compile cache checks, and Node ≥ 22 would refuse the compiled code
 * of the project's modules that validate and diff left. Not in `processIo`, which a program may
 * run commands with inside its own process. (Validate gains nothing from the flag: its peak is
 * what it holds, and it spent 5–10 % more CPU.)
 */
export function holdLessGarbage(): void {
  const flag = heapGrowthFlag(process.execArgv);
  if (flag === undefined) return;
  setFlagsFromString(flag);
  // The one way to collect on demand without starting node with --expose-gc: the flag makes the
  // next context have a `gc` (Node 20 to 26).
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Write `pieces` through `write` in writes of about 64 KB: a write per line is a system call per
 * line (30,000 of them for the findings of a large project), one string of everything holds it
 * all in memory twice (the text, and its UTF-8 copy for the write).
 */
export function writeInPieces(write: (text: string) => void, pieces: Iterable<string>): void {
  for (const run of textRuns(pieces)) write(run);
}

/**
 * Write `pieces` as `writeInPieces` does, waiting after each write until stdout has taken it
 * (`Io.drained`): what is made but not taken yet is then never much more than a write.
 */
export async function writeInPiecesDrained(io: Io, pieces: Iterable<string>): Promise<void> {
  for (const run of textRuns(pieces)) {
    io.stdout(run);
    await io.drained?.();
  }
}

/** Resolves when `stream` needs no draining, has drained, or is gone (its reader went away). */
function drainedOf(stream: NodeJS.WriteStream): () => Promise<void> {
  return () =>
    stream.writableNeedDrain
      ? new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('close', done);
            stream.off('error', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('close', done);
          stream.on('error', done);
        })
      : Promise.resolve();
}

/**
 * Keep stdout for monitor's own output: from now on, whatever else in the process writes to it (a
 * construct file's or a policy's `console.log`, a `process.stdout.write`) goes to stderr, and only
 * the returned writer reaches stdout. For `--json`, whose envelope must be all that stdout holds.
 */
export function reserveStdout(): (text: string) => boolean {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (text: string) => boolean;
  const toStderr = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  stdout.write = toStderr;
  return write;
}

export function processIo(options: { reservedStdout?: (text: string) => boolean } = {}): Io {
  const env = process.env;
  const tty = process.stdout.isTTY === true;
  const write = options.reservedStdout ?? ((text: string) => process.stdout.write(text));
  return {
    stdout: (text) => write(text),
    drained: drainedOf(process.stdout),
    stderr: (text) => process.stderr.write(text),
    color: tty && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    interactive: tty && process.stdin.isTTY === true && (env.CI === undefined || env.CI === 'false'),
    cwd: process.cwd(),
    env,
    columns: tty ? Number(env.COLUMNS) || process.stdout.columns || 100 : undefined,
    prompt: async (question) => {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await new Promise<string | undefined>((resolve) => {
          let settled = false;
          const settle = (answer: string | undefined) => {
            if (settled) return;
            settled = true;
            // No answer left the cursor on the question's line.
            if (answer === undefined) process.stderr.write('\n');
            resolve(answer);
          };
          // Ctrl-C at a prompt reaches readline, not the process; Ctrl-D closes the input.
          rl.once('SIGINT', () => settle(undefined));
          rl.once('close', () => settle(undefined));
          rl.question(question).then(settle, () => settle(undefined));
        });
      } finally {
        rl.close();
      }
    },
    trapInterrupts: (notice = 'finishing the operations in flight, starting nothing new') => {
      const controller = new AbortController();
      const onSignal = () => {
        if (controller.signal.aborted) process.exit(130);
        process.stderr.write(
          `\ninterrupted: ${typeof notice === 'function' ? notice() : notice} (again to quit now)\n`,
        );
        controller.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      return {
        signal: controller.signal,
        release: () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        },
      };
    },
  };
}

/** The painter commands and the engine's renderers write with. */
export type Paint = Style;

const same = (s: string) => s;
const PLAIN: Paint = { red: same, yellow: same, green: same, cyan: same, dim: same, bold: same };

/** Colours through `node:util`'s `styleText`, or none at all: `Io.color` has decided already. */
export function paint(color: boolean): Paint {
  if (!color) return PLAIN;
  const as = (format: Parameters<typeof styleText>[0]) => (text: string) =>
    styleText(format, text, { validateStream: false });
  return {
    red: as('red'),
    yellow: as('yellow'),
    green: as('green'),
    cyan: as('cyan'),
    dim: as('dim'),
    bold: as('bold'),
  };
}

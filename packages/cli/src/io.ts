/** Where a command reads and writes: the process by default, buffers in tests. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour and live progress only on a TTY, and never with NO_COLOR. */
  color: boolean;
  interactive: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
}

export function processIo(): Io {
  const env = process.env;
  const tty = process.stdout.isTTY === true;
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: tty && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    interactive: tty && process.stdin.isTTY === true && env.CI === undefined,
    cwd: process.cwd(),
    env,
  };
}

export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
export function paint(color: boolean): Paint {
  if (!color) {
    const same = (s: string) => s;
    return { red: same, yellow: same, green: same, dim: same, bold: same };
  }
  return {
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

import { execFile } from 'node:child_process';

/** Why a git step of `pull --pr` failed, and what to do about it. */
export class GitError extends Error {
  /** For `--json`'s `error.code`: `not_a_git_repository`, `no_origin`, `push_refused`, … */
  readonly code: string;
  readonly hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** What a git command printed, or why it failed. */
export interface GitOutcome {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The exit code; undefined when git could not be run at all. */
  exitCode: number | undefined;
}

export interface GitRunOptions {
  /** Written to git's standard input. */
  input?: string;
  /** On top of the environment the runner was made with. */
  env?: Record<string, string>;
}

/** Runs git in one directory and answers with what it printed, whatever its exit code. */
export type Git = (args: readonly string[], options?: GitRunOptions) => Promise<GitOutcome>;

/**
 * git as a subprocess (no shell) in `cwd`, with `env`: it never asks on the terminal, runs no hook
 * of the repository (monitor's commits and pushes are its own, not the user's to lint), and waits
 * at most `timeoutMs` for one command.
 */
export function gitIn(cwd: string, env: Record<string, string | undefined>, timeoutMs = 120_000): Git {
  return (args, options = {}) =>
    new Promise((resolve) => {
      const child = execFile(
        'git',
        ['-c', 'core.hooksPath=/dev/null', ...args],
        {
          cwd,
          env: { ...env, GIT_TERMINAL_PROMPT: '0', ...options.env },
          maxBuffer: 64 * 1024 * 1024,
          timeout: timeoutMs,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          const code = (error as { code?: unknown } | null)?.code;
          resolve({
            ok: error === null,
            stdout,
            stderr: error !== null && stderr === '' ? error.message : stderr,
            exitCode: error === null ? 0 : typeof code === 'number' ? code : undefined,
          });
        },
      );
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.input ?? '');
    });
}

/** The output of a git command that must succeed; otherwise a GitError with git's own words. */
export async function gitOutput(
  git: Git,
  args: readonly string[],
  options: GitRunOptions & { what?: string; hint?: string } = {},
): Promise<string> {
  const r = await git(args, options);
  if (r.ok) return r.stdout;
  const said = lastLines(r.stderr);
  const what = options.what ?? `git ${args[0]} failed`;
  throw new GitError(
    'git_failed',
    `${what}${said === '' ? '' : `: ${said}`}`,
    options.hint ?? 'git says why above; run the command again once it is fixed',
  );
}

/** git's last few lines of complaint, on one line. */
export function lastLines(stderr: string, count = 3): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('hint:'))
    .slice(-count)
    .join(' ');
}

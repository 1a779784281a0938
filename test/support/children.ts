import { type ChildProcess, type ExecFileOptions, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, onTestFinished } from 'vitest';
import { killTree } from './processes.js';

/**
 * Child processes that tests start are stopped whatever the outcome: when the test that started
 * one ends (passed, failed, or timed out: vitest runs `onTestFinished` after a timeout too, while
 * the test's own code is left waiting), or, for one started in a `beforeAll`, when its file ends.
 * A test that timed out once left an emulator child running for 18 minutes.
 */
const running = new Set<ChildProcess>();
afterAll(async () => {
  await Promise.all([...running].map(stopChild));
});

/** Stop `child` (and whatever it started) when the current test ends, or when the file ends. */
export function stopWhenTestEnds<T extends ChildProcess>(child: T): T {
  if (hasExited(child)) return child;
  running.add(child);
  child.once('exit', () => running.delete(child));
  try {
    onTestFinished(() => stopChild(child));
  } catch {
    // Not inside a test (a beforeAll or a describe body): the afterAll above stops it.
  }
  return child;
}

export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Stop `child` and whatever it started (SIGKILL), and wait until it is reaped: gone from the table. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child) || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killTree(child.pid);
  await exited;
}

const execFileAsync = promisify(execFile);

/**
 * `promisify(execFile)` (it rejects with `code`, `stdout` and `stderr` on a non-zero exit), with
 * the child stopped when the test ends.
 */
export function execFileInTest(
  file: string,
  args: readonly string[],
  options: ExecFileOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const started = execFileAsync(file, args, { ...options, encoding: 'utf8' });
  stopWhenTestEnds(started.child);
  return started;
}

import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

/**
 * Stop `child` (SIGKILL) when the current test ends, whatever the outcome: passed, failed, or timed
 * out (vitest runs `onTestFinished` after a timeout too, while the test's own code is left
 * waiting). A persistence test that timed out once left its emulator child running for 18 minutes.
 * Call it inside a test, right after the spawn.
 */
export function stopWhenTestEnds<T extends ChildProcess>(child: T): T {
  onTestFinished(() => stopChild(child));
  return child;
}

/** SIGKILL, then wait until the child is reaped; at once for one that has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

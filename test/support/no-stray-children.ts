/**
 * A setup file of every package's vitest config: when a test file ends, no process it started may
 * still run. One that does is killed, with whatever it started, and the file fails, naming it: a
 * child left behind by a test that timed out once ran on for 18 minutes. The test's own clean-up
 * (`stopWhenTestEnds`, `onTestFinished`, `afterAll`) runs before this check. Linux only (it reads
 * /proc); elsewhere it checks nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll } from 'vitest';
import { commandLine, killTree, processTable } from './processes.js';

/** Children that live as long as the process on purpose: esbuild's service, of an in-process build. */
const OWN_HELPERS = /(^|\/)esbuild(\.exe)? --service/;

/** This worker's children that still run (a zombie has exited: it only waits to be reaped). */
function strays(): number[] {
  return processTable()
    .filter((p) => p.ppid === process.pid && p.state !== 'Z' && !OWN_HELPERS.test(commandLine(p.pid)))
    .map((p) => p.pid);
}

afterAll(async () => {
  // A child that was just told to stop may take a moment on a busy machine.
  for (let waited = 0; strays().length > 0 && waited < 10_000; waited += 100) await sleep(100);
  const left = strays().map((pid) => ({ pid, command: commandLine(pid) }));
  for (const { pid } of left) killTree(pid);
  if (left.length > 0) {
    throw new Error(
      `child processes still running when the file ended (now killed): ${left.map((c) => `${c.pid} ${c.command}`).join('; ')}; stop each child a test starts whatever the outcome (stopWhenTestEnds, onTestFinished)`,
    );
  }
});

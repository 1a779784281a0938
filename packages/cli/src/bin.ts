#!/usr/bin/env node
import module from 'node:module';
import { takeRefusedExit } from './refused-exit.js';

// Node ≥ 22.8 keeps compiled code between runs (most of a command's start is compiling modules),
// the project's construct files too (build/bundle-place.ts in the engine); Node 20 has no such cache, and the
// call is skipped.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that goes away (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// Node exits by itself when nothing is left to wait on, even with the command unfinished (a promise
// that can never settle): then say so, and never exit 0 without having said what was done.
let finished = false;
process.on('exit', (code) => {
  // A construct file's timer that fired after the command had ended, or the reason it never did.
  const refused = takeRefusedExit();
  if (refused !== undefined) {
    process.stderr.write(`error: ${refused.message}\nhint: ${refused.hint}\n`);
    process.exitCode = 3;
    return;
  }
  if (finished || code !== 0) return;
  process.stderr.write(
    'error: monitor stopped before the command finished: something it waited on can never happen; nothing more was done\nhint: run it again with --debug, and report it if it happens again\n',
  );
  process.exitCode = 1;
});

const { holdLessGarbage, processIo, reserveStdout } = await import('./io.js');
const { main, wantsJson } = await import('./main.js');
const argv = process.argv.slice(2);
// With --json, stdout holds the envelope alone: what a construct file or a policy prints goes to stderr.
const io = processIo(wantsJson(argv) ? { reservedStdout: reserveStdout() } : {});
process.exitCode = await main(argv, { ...io, holdLessGarbage });
finished = true;

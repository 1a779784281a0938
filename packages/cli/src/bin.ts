#!/usr/bin/env node
import module from 'node:module';

// Node ≥ 22.1 keeps compiled code between runs (most of a command's start is compiling modules);
// Node 20 has no such cache, and the call is skipped.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that goes away (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

const { processIo } = await import('./io.js');
const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2), processIo());

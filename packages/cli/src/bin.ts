#!/usr/bin/env node
import { processIo } from './io.js';
import { main } from './main.js';

// A reader that goes away (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await main(process.argv.slice(2), processIo());

#!/usr/bin/env node
// Committed so that npm links the command on a fresh install, before dist/ is built.
import('../dist/bin.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('monitor is not built yet: run `npm run build` at the repository root\n');
    process.exitCode = 1;
    return;
  }
  throw error;
});

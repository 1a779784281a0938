// The built CLI as a subprocess, as users and CI run it (no colour, non-interactive), without
// blocking the caller's event loop (benchmarks run the emulator in their own process).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Resolves to the exit code and output; `nodeArgs` go before the CLI (e.g. `--import` a preload). */
export function monitor(args, cwd, env, nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      cwd,
      env: { ...process.env, ...env, NO_COLOR: '1', CI: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

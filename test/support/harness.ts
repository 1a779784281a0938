import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@monitor/api';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type EmulatorOptions, startEmulator } from '@monitor/emulator';
import { stopWhenTestEnds } from './children.js';

export const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
/**
 * Projects are written inside the repository so that `@monitor/constructs` resolves from the
 * workspace's node_modules, as it does for a user with it installed.
 */
const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The built CLI as a subprocess, as users and CI run it (non-interactive, no colour); killed when
 * the test ends, whatever the outcome, if it is still running.
 */
export function monitor(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; onSpawn?: (child: ChildProcess) => void },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = stopWhenTestEnds(
      spawn(process.execPath, [BIN, ...args], {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: '1', CI: 'true', ...options.env },
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    options.onSpawn?.(child);
  });
}

/** A project directory with `files` (paths relative to it); removed by `cleanup`. */
export function writeProject(files: Record<string, string>, projectName = 'e2e'): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, 'project-'));
  writeFiles(dir, {
    'monitor.config.ts': `import { defineConfig } from '@monitor/constructs';\nexport default defineConfig({ projectName: '${projectName}' });\n`,
    ...files,
  });
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** An emulator on port 0 with an empty account, and the environment that points the CLI at it. */
export async function emulatorForTests(options: EmulatorOptions = {}) {
  const emulator = await startEmulator({
    port: 0,
    fixture: {},
    rateLimits: false,
    agentHealthPort: false,
    // Tests count and slice the whole log of their run: keep all of it, not the newest 1,000.
    requestLogSize: 1_000_000,
    ...options,
  });
  // The user's cache of this emulator's runs (the account's rate budget among it): a directory of
  // its own, not the home directory's, which would gain a budget file per emulator's port.
  const cache = mkdtempSync(join(tmpdir(), 'monitor-e2e-cache-'));
  const env = {
    MONITOR_BASE_URL: emulator.url,
    MONITOR_API_KEY: DEV_API_KEY,
    MONITOR_ACCOUNT_ID: DEV_ACCOUNT_ID,
    // As a team sets it in CI and in their shells: the key of the secret hashes in state.
    MONITOR_STATE_SECRET: 'e2e-state-secret',
    XDG_CACHE_HOME: cache,
  };
  const client = createClient({
    apiKey: DEV_API_KEY,
    accountId: DEV_ACCOUNT_ID,
    baseUrl: emulator.url,
    rateLimit: false,
    routeRateLimits: false,
  });
  return {
    emulator,
    env,
    client,
    /** Requests the emulator served, by method and path template. */
    writes: () => emulator.requests.filter((r) => r.method !== 'GET'),
    close: async () => {
      await client.close();
      await emulator.close();
      rmSync(cache, { recursive: true, force: true });
    },
  };
}

/** The `--json` envelope a run printed, for tests to read into (its result differs by command). */
export function envelopeOf(r: CliResult) {
  return JSON.parse(r.stdout) as {
    // biome-ignore lint/suspicious/noExplicitAny: the result's shape differs by command; tests read into it.
    result: Record<string, any>;
    // biome-ignore lint/suspicious/noExplicitAny: the plan as data (diff and deploy); tests read into it.
    plan: Record<string, any> | null;
    // biome-ignore lint/suspicious/noExplicitAny: diagnostics and policy findings; tests read into them.
    diagnostics: Record<string, any>[];
    error: { code: string; message: string; hint?: string } | null;
    exitCode: number;
  };
}

import { join } from 'node:path';
import { type Client, ConfigError, createClient, type RateLimit, resolveClientConfig } from '@monitor/api';
import { DEV_ACCOUNT_ID, DEV_API_KEY, type RunningEmulator, startEmulator } from '@monitor/emulator';
import { FileStateStore, type LoadedProject, validateProject } from '@monitor/engine';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from './exit-codes.js';
import { diagnosticsToJson, formatDiagnostic } from './format-diagnostics.js';
import { type Io, paint } from './io.js';

/** Options of every command that works on a project against an account. */
export interface ProjectArgs {
  config?: string | undefined;
  local?: boolean | undefined;
  json?: boolean | undefined;
  debug?: boolean | undefined;
  rateLimit?: string | undefined;
}

export function withProjectOptions<T>(y: Argv<T>) {
  return y
    .option('config', {
      type: 'string',
      describe: 'Path of monitor.config.ts (default: the nearest one upwards)',
    })
    .option('local', {
      type: 'boolean',
      describe: 'Run against the embedded emulator, persisted under .monitor/local/ (no account needed)',
    })
    .option('json', { type: 'boolean', describe: 'Print the result as JSON (formatVersion 1) on stdout' })
    .option('rate-limit', {
      type: 'string',
      describe: "Client rate limit as requests/seconds; match the account's limit (default 600/60)",
    })
    .option('debug', { type: 'boolean', describe: 'Log every API request to stderr (secrets redacted)' })
    .group(['config', 'local', 'json', 'rate-limit', 'debug'], 'Project options:');
}

/** `600/60` or `600/60s` → a rate limit; a clear error otherwise. */
export function parseRateLimit(text: string): RateLimit {
  const m = /^(\d+)\/(\d+)s?$/.exec(text.trim());
  if (m === null || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new ConfigError(
      `--rate-limit "${text}" is not requests/seconds`,
      'write it as e.g. 600/60 (600 requests per 60 seconds)',
    );
  }
  return { limit: Number(m[1]), windowMs: Number(m[2]) * 1000 };
}

/** Load the project; an invalid one prints its diagnostics and gives exit code 3. */
export async function loadProject(args: ProjectArgs, io: Io): Promise<LoadedProject | ExitCode> {
  const report = await validateProject({
    cwd: io.cwd,
    ...(args.config === undefined ? {} : { config: args.config }),
  });
  const errors = report.diagnostics.filter((d) => d.severity === 'error');
  if (report.valid && report.project !== undefined) {
    const p = paint(io.color);
    for (const d of report.diagnostics) io.stderr(`${formatDiagnostic(d, io.cwd, p)}\n`);
    return report.project;
  }
  if (args.json === true) {
    io.stdout(
      `${JSON.stringify({ formatVersion: 1, valid: false, diagnostics: diagnosticsToJson(report.diagnostics, io.cwd) }, null, 2)}\n`,
    );
  } else {
    const p = paint(io.color);
    for (const d of report.diagnostics) io.stderr(`${formatDiagnostic(d, io.cwd, p)}\n`);
    io.stderr(
      `${p.red('✗')} the project is invalid: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing was read or changed\n`,
    );
  }
  return EXIT.invalid;
}

/** An API client for the project's account, and where its state lives. */
export interface Connection {
  client: Client;
  accountId: string;
  baseUrl: string;
  store: FileStateStore;
  lockPath: string;
  local: boolean;
  close(): Promise<void>;
}

/**
 * Connect to the account: `MONITOR_*` variables (the config's `api.baseUrl` as a fallback), or
 * with `--local` an in-process emulator persisted under `.monitor/local/` with its dev account.
 */
export async function connect(args: ProjectArgs, io: Io, project: LoadedProject): Promise<Connection> {
  const rateLimit = args.rateLimit === undefined ? undefined : parseRateLimit(args.rateLimit);
  let emulator: RunningEmulator | undefined;
  let credentials: { apiKey: string; accountId: string; baseUrl: string };
  let stateDir = project.config.stateDir;
  if (args.local === true) {
    const localDir = join(project.projectDir, '.monitor', 'local');
    emulator = await startEmulator({
      port: 0,
      dataFile: join(localDir, 'emulator.json'),
      agentHealthPort: false,
    });
    credentials = { apiKey: DEV_API_KEY, accountId: DEV_ACCOUNT_ID, baseUrl: emulator.url };
    // Local state never mixes with the committed state of real accounts.
    stateDir = join(localDir, 'state');
  } else {
    try {
      credentials = resolveClientConfig({
        env: {
          ...io.env,
          MONITOR_BASE_URL: io.env.MONITOR_BASE_URL ?? project.config.baseUrl,
        },
      });
    } catch (e) {
      if (e instanceof ConfigError) {
        throw new ConfigError(e.message, `${e.hint ?? ''}; or try it on the embedded emulator with --local`);
      }
      throw e;
    }
  }
  const p = paint(io.color);
  const client = createClient({
    ...credentials,
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(args.debug === true
      ? {
          onRequest: (e) =>
            io.stderr(p.dim(`→ ${e.method} ${e.path}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}\n`)),
          onResponse: (e) =>
            io.stderr(
              p.dim(
                `← ${e.status ?? e.errorCode ?? '?'} ${e.method} ${e.path} ${Math.round(e.durationMs)} ms\n`,
              ),
            ),
        }
      : {}),
  });
  const store = new FileStateStore(stateDir, credentials.accountId);
  return {
    client,
    accountId: credentials.accountId,
    baseUrl: credentials.baseUrl,
    store,
    lockPath: join(stateDir, `${credentials.accountId}.lock`),
    local: emulator !== undefined,
    close: async () => {
      store.close();
      await client.close();
      await emulator?.close();
    },
  };
}

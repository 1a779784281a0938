import type { Argv } from 'yargs';

// The options of the project commands, apart from what runs them: a command's --help loads only this.

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
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope (formatVersion 2) on stdout, on failure too',
    })
    .option('rate-limit', {
      type: 'string',
      describe: "Client rate limit as requests/seconds; match the account's limit (default 600/60)",
    })
    .option('debug', { type: 'boolean', describe: 'Log every API request to stderr (secrets redacted)' })
    .group(['config', 'local', 'json', 'rate-limit', 'debug'], 'Project options:');
}

export interface ApplyArgs {
  yes?: boolean | undefined;
  allowDeletes?: boolean | undefined;
  parallelism?: number | undefined;
  lockTimeout?: number | undefined;
  json?: boolean | undefined;
}

export function withApplyOptions<T>(y: Argv<T>) {
  return y
    .option('yes', {
      alias: 'y',
      type: 'boolean',
      describe: 'Apply without asking (needed when not on a terminal, e.g. in CI)',
    })
    .option('allow-deletes', {
      type: 'boolean',
      describe: 'Allow deleting resources in a non-interactive run',
    })
    .option('parallelism', {
      type: 'number',
      default: 8,
      describe: 'Operations in flight at once (under the client rate limit)',
    })
    .option('lock-timeout', {
      type: 'number',
      default: 0,
      describe: 'Seconds to wait for another deploy or destroy to release the state lock',
    });
}

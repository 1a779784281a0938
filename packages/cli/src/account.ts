import {
  type AccountBudget,
  type Client,
  ConfigError,
  createClient,
  type KnownResponses,
  type RateLimit,
  resolveClientConfig,
  type WaitNotice,
} from '@monitor/api';
import type { ProjectConfig } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { CLEAR_LINE, type Io, paint } from './io.js';
import { startLocalEmulator } from './local-emulator.js';
import type { ProjectArgs } from './options.js';
import type { RunContext } from './output.js';

/** The options of the commands on an account: a project command's, without `--timeout`. */
export type AccountArgs = Omit<ProjectArgs, 'timeout'>;

export function withAccountOptions<T>(y: Argv<T>) {
  return y
    .option('local', {
      type: 'boolean',
      describe: "Use the embedded emulator's account, persisted under .monitor/local/ (no account needed)",
    })
    .option('json', {
      type: 'boolean',
      describe: 'Print one JSON envelope (formatVersion 2) on stdout, on failure too; times in ISO 8601 UTC',
    })
    .option('config', {
      type: 'string',
      describe: 'monitor.config.ts whose api.baseUrl to use when MONITOR_BASE_URL is not set',
    })
    .option('env', {
      type: 'string',
      describe: 'An environment of the config: use its account and base URL (default $MONITOR_ENV)',
    })
    .option('rate-limit', {
      type: 'string',
      describe: "Client rate limit as requests/seconds; match the account's limit (default 600/60)",
    })
    .option('debug', { type: 'boolean', describe: 'Log every API request to stderr (secrets redacted)' })
    .group(['local', 'json', 'config', 'env', 'rate-limit', 'debug'], 'Account options:');
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

export interface Credentials {
  apiKey: string;
  accountId: string;
  baseUrl: string;
}

/**
 * The account's credentials from `MONITOR_*` (with `fallbackBaseUrl`, the config's `api.baseUrl`),
 * or a hint a person at a shell or writing a CI job can act on.
 */
export function credentialsFromEnv(env: Io['env'], fallbackBaseUrl?: string): Credentials {
  try {
    return resolveClientConfig({
      env: { ...env, MONITOR_BASE_URL: env.MONITOR_BASE_URL ?? fallbackBaseUrl },
    });
  } catch (e) {
    if (e instanceof ConfigError) {
      const fix =
        e.variable === undefined
          ? (e.hint ?? '')
          : `export ${e.variable} in your shell or set it as a CI secret (MONITOR_API_KEY, MONITOR_ACCOUNT_ID and MONITOR_BASE_URL select the account; the config's api.baseUrl may give the URL)`;
      throw new ConfigError(
        e.message,
        `${fix}; or run against the embedded emulator with --local, which needs no account`,
      );
    }
    throw e;
  }
}

/** A client for `credentials`, logging each request to stderr with `--debug`. */
export function clientFor(
  credentials: Credentials,
  io: Io,
  options: {
    rateLimit?: string | undefined;
    debug?: boolean | undefined;
    timeoutSeconds?: number | undefined;
    /** Response bodies known to pass their schemas (the project's, `projectResponses`). */
    knownResponses?: KnownResponses | undefined;
    /** The account's budget shared with other runs (`accountBudget`): its limit is the client's. */
    budget?: AccountBudget | undefined;
  },
): Client {
  const p = paint(io.color);
  const rateLimit = options.rateLimit === undefined ? undefined : parseRateLimit(options.rateLimit);
  return createClient({
    ...credentials,
    ...(rateLimit === undefined ? {} : { rateLimit }),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.knownResponses === undefined ? {} : { knownResponses: options.knownResponses }),
    // A long wait says why, on a terminal and in a CI log alike: silence there looks like a hang.
    onWait: (wait) => io.stderr(waitNotice(wait, io)),
    onWarning: (message) => warnOnce(io, message),
    // `--timeout` bounds each request whole: the wait for the answer, each gap in its body, and
    // the time from sending it to the body's last byte (a body that trickles in).
    ...(options.timeoutSeconds === undefined
      ? {}
      : {
          timeouts: {
            headersMs: options.timeoutSeconds * 1000,
            bodyMs: options.timeoutSeconds * 1000,
            totalMs: options.timeoutSeconds * 1000,
          },
        }),
    ...(options.debug === true
      ? {
          onRequest: (e) =>
            io.stderr(
              p.dim(
                `${escapeTerminal(`→ ${e.method} ${e.path}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`)}\n`,
              ),
            ),
          onResponse: (e) =>
            io.stderr(
              p.dim(
                `${escapeTerminal(`← ${e.status ?? e.errorCode ?? '?'} ${e.method} ${e.path} ${Math.round(e.durationMs)} ms`)}\n`,
              ),
            ),
        }
      : {}),
  });
}

const warned = new WeakMap<Io, Set<string>>();

/** `warning: …` on stderr, once per run (per `Io`) for each message, however many clients tell it. */
export function warnOnce(io: Io, message: string): void {
  const told = warned.get(io) ?? new Set<string>();
  warned.set(io, told);
  if (told.has(message)) return;
  told.add(message);
  io.stderr(`${paint(io.color).yellow('warning')}: ${escapeTerminal(message)}\n`);
}

/**
 * `Waiting 58 s: the client rate limit of 600 requests per 60 s (--rate-limit)`, one plain line; a
 * wait for the account's shared budget has no end to tell: `Waiting for the account's budget: 3
 * other runs are deploying into it`.
 */
export function waitNotice(wait: WaitNotice, io: Pick<Io, 'interactive'>): string {
  const how = wait.otherRuns === undefined ? `${Math.ceil(wait.ms / 1000)} s:` : 'for';
  return `${io.interactive ? CLEAR_LINE : ''}Waiting ${how} ${escapeTerminal(wait.reason)}\n`;
}

/**
 * The account's rate limit and its budget shared with the runs calling it at once: `--rate-limit`,
 * else the config's `rateLimit`; for the embedded emulator (`--local`), which no other process
 * calls, a budget of this process (the projects of a workspace share it). Loaded only when a
 * project command calls an account.
 */
export async function accountBudget(
  credentials: Credentials,
  io: Pick<Io, 'env'>,
  options: {
    rateLimit?: string | undefined;
    configLimit?: RateLimit | undefined;
    stateUrl?: string | undefined;
    local?: boolean;
  },
): Promise<AccountBudget> {
  const { openAccountBudget } = await import('@monitor/engine/budget');
  const limit = options.rateLimit === undefined ? options.configLimit : parseRateLimit(options.rateLimit);
  return openAccountBudget({
    baseUrl: credentials.baseUrl,
    accountId: credentials.accountId,
    limit,
    stateUrl: options.stateUrl,
    env: io.env,
    local: options.local === true,
  });
}

export interface AccountConnection {
  client: Client;
  accountId: string;
  local: boolean;
  close(): Promise<void>;
}

/**
 * The account of an operational command. No project is loaded: credentials come from `MONITOR_*`;
 * only when `MONITOR_BASE_URL` is missing, or for `--local` (whose data sits beside the project),
 * is the nearest config looked for.
 */
export async function connectAccount(args: AccountArgs, { io, out }: RunContext): Promise<AccountConnection> {
  let closeEmulator = async () => {};
  let credentials: Credentials;
  if (args.local === true) {
    // Each environment of the config has a local account of its own, as it has a real one.
    const environment = args.env ?? nonEmpty(io.env.MONITOR_ENV);
    const project =
      environment === undefined ? undefined : await optionalProjectConfig(args, io.cwd, environment);
    out.environment = project?.config.environment ?? null;
    const emulator = await startLocalEmulator(
      project?.projectDir ?? (await projectDirOrCwd(args, io)),
      project?.config.environment,
    );
    closeEmulator = emulator.close;
    credentials = emulator.credentials;
  } else {
    const environment = args.env ?? nonEmpty(io.env.MONITOR_ENV);
    const project =
      environment !== undefined || io.env.MONITOR_BASE_URL === undefined || args.config !== undefined
        ? await optionalProjectConfig(args, io.cwd, environment)
        : undefined;
    if (args.env !== undefined && project === undefined) {
      throw new ConfigError(
        `--env ${args.env} needs a monitor.config.ts that defines it, and none was found from ${io.cwd}`,
        'run the command in the project, or name its config with --config',
      );
    }
    out.environment = project?.config.environment ?? null;
    credentials = credentialsFromEnv(accountEnv(io.env, project?.config), project?.config.baseUrl);
  }
  const local = args.local === true;
  out.account = { id: credentials.accountId, local };
  const client = clientFor(credentials, io, args);
  return {
    client,
    accountId: credentials.accountId,
    local,
    close: async () => {
      await client.close();
      await closeEmulator();
    },
  };
}

/** The directory of the nearest config (where `.monitor/local/` lives), else the working directory. */
async function projectDirOrCwd(args: AccountArgs, io: Io): Promise<string> {
  const { ConfigNotFoundError, findProjectDir } = await import('@monitor/engine');
  try {
    return findProjectDir(io.cwd, args.config);
  } catch (e) {
    if (e instanceof ConfigNotFoundError && args.config === undefined) return io.cwd;
    throw e;
  }
}

/**
 * The nearest project config (or the one `--config` names) for `environment`, or undefined when
 * there is none: commands on the account work outside a project too.
 */
export async function optionalProjectConfig(
  args: { config?: string | undefined },
  cwd: string,
  environment?: string,
): Promise<ProjectConfig | undefined> {
  const { ConfigNotFoundError, loadConfig } = await import('@monitor/engine');
  try {
    return await loadConfig({
      cwd,
      ...(args.config === undefined ? {} : { config: args.config }),
      environment,
    });
  } catch (e) {
    if (e instanceof ConfigNotFoundError && args.config === undefined) return undefined;
    throw e;
  }
}

const nonEmpty = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * The variables that select the account, with the environment's account when the config names
 * one. `MONITOR_ACCOUNT_ID` may say the same, never another: a run must not reach an account its
 * environment does not name.
 */
export function accountEnv(
  env: Record<string, string | undefined>,
  config: Pick<ProjectConfig['config'], 'accountId' | 'environment'> | undefined,
): Record<string, string | undefined> {
  const accountId = config?.accountId;
  if (accountId === undefined) return env;
  const given = env.MONITOR_ACCOUNT_ID?.trim();
  if (given !== undefined && given !== '' && given !== accountId) {
    throw new ConfigError(
      `MONITOR_ACCOUNT_ID is ${given}, but environment "${config?.environment ?? ''}" is account ${accountId}`,
      `unset MONITOR_ACCOUNT_ID, or choose the environment of account ${given} with --env`,
      'MONITOR_ACCOUNT_ID',
    );
  }
  return { ...env, MONITOR_ACCOUNT_ID: accountId };
}

/** An API error told again with a hint for this command (`not_found` → how to find the right id). */
export class CommandError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** `request`, with the command's own hint for the error codes in `hints`. */
export async function explained<T>(request: Promise<T>, hints: Partial<Record<string, string>>): Promise<T> {
  try {
    return await request;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const hint = typeof code === 'string' ? hints[code] : undefined;
    if (typeof code === 'string' && hint !== undefined)
      throw new CommandError(code, (e as Error).message, hint);
    throw e;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID argument, or a usage error naming what it should have been; checked before any request. */
export function uuidArgument(what: string, value: unknown, hint: string): string {
  const text = String(value ?? '').trim();
  if (!UUID.test(text)) {
    throw new CommandError('usage', `${what} must be a UUID (like 6f1c…-…), got "${text}"`, hint);
  }
  return text.toLowerCase();
}

import { join, relative } from 'node:path';
import { localAccountDir } from '@monitor/engine/config-location';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { accountEnv, clientFor, credentialsFromEnv, optionalProjectConfig } from '../account.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { startLocalEmulator } from '../local-emulator.js';
import { environmentOf } from '../options.js';
import type { RunContext } from '../output.js';
import { painted, renderFields } from '../tables.js';

export interface WhoamiArgs {
  config?: string | undefined;
  env?: string | undefined;
  local?: boolean | undefined;
  json?: boolean | undefined;
}

export const builder = (y: Argv) =>
  y
    .option('env', {
      type: 'string',
      describe: 'The environment, when the config defines them (default $MONITOR_ENV)',
    })
    .option('local', { type: 'boolean', describe: "The embedded emulator's account" })
    .option('config', {
      type: 'string',
      describe: 'Path of monitor.config.ts (default: the nearest one upwards)',
    })
    .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' })
    .example(
      '$0 whoami --env production',
      'which account a deploy to production would reach, and whether the key works',
    );

type ProjectConfig = Awaited<ReturnType<typeof optionalProjectConfig>>;
type Credentials = { apiKey: string; accountId: string; baseUrl: string };
/** Where the account, the base URL and the key came from, in words. */
type Sources = { account: string; baseUrl: string; key: string };
/** Whether the service took the key, and if not, what it said. */
type KeyCheck = { accepted: boolean; code?: string; message?: string; hint?: string };

/**
 * `monitor whoami`: the account, environment and base URL a command would use here, where each
 * came from, and whether the service accepts the key. Never the key itself.
 */
export async function run(args: WhoamiArgs, { io, out }: RunContext): Promise<ExitCode> {
  const environment = environmentOf(args, io.env);
  const project = await optionalProjectConfig(args, io.cwd, environment);
  const config = project?.config;
  out.project = config?.projectName ?? null;
  out.environment = config?.environment ?? null;
  const found = await accountOf(args, io.env, project, io.cwd);
  if ('problem' in found) return reportMissing(found, project, args, { io, out });
  const { credentials, sources, close } = found;
  out.account = { id: credentials.accountId, local: args.local === true };
  let check: KeyCheck;
  try {
    check = await checkKey(clientFor(credentials, io, {}));
  } finally {
    await close();
  }
  const state = stateDescription(args, io.env, project, io.cwd);
  out.result = {
    project: config?.projectName ?? null,
    configPath: project?.configPath ?? null,
    environment: config?.environment ?? null,
    environments: config?.environments ?? [],
    accountId: credentials.accountId,
    accountFrom: sources.account,
    baseUrl: credentials.baseUrl,
    baseUrlFrom: sources.baseUrl,
    keyFrom: sources.key,
    keyAccepted: check.accepted,
    state: state ?? null,
  };
  if (!check.accepted) {
    out.error = {
      code: check.code ?? 'unauthorized',
      message: refusedKey(check)
        ? `the service refused the key: ${check.message ?? ''}`
        : `could not ask the service: ${check.message ?? ''}`,
      ...(check.hint === undefined ? {} : { hint: check.hint }),
    };
  }
  if (!out.json) {
    const p = paint(io.color);
    io.stdout(renderWhoami(project, credentials, sources, check, state, io.cwd, p));
    if (!check.accepted && check.hint !== undefined)
      io.stderr(`${p.dim('hint')}: ${escapeTerminal(check.hint)}\n`);
  }
  return check.accepted ? EXIT.ok : EXIT.error;
}

/** Credentials that cannot be made (a variable not set): what is known, and why not. */
interface Missing {
  problem: Error & { code?: string; hint?: string };
  accountId: string | undefined;
  baseUrl: string | undefined;
  keySet: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const nonEmpty = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** Without a key (or an account, or a base URL): what a command would use, then what is missing. */
function reportMissing(
  missing: Missing,
  project: ProjectConfig,
  args: WhoamiArgs,
  { io, out }: RunContext,
): ExitCode {
  const config = project?.config;
  out.account =
    missing.accountId === undefined ? null : { id: missing.accountId, local: args.local === true };
  out.result = {
    project: config?.projectName ?? null,
    configPath: project?.configPath ?? null,
    environment: config?.environment ?? null,
    environments: config?.environments ?? [],
    accountId: missing.accountId ?? null,
    baseUrl: missing.baseUrl ?? null,
    keySet: missing.keySet,
    keyAccepted: false,
  };
  out.error = {
    code: missing.problem.code ?? 'config',
    message: missing.problem.message,
    ...(missing.problem.hint === undefined ? {} : { hint: missing.problem.hint }),
  };
  if (out.json) return EXIT.error;
  const p = paint(io.color);
  const notSet = (name: string) => p.yellow(`not set (${name})`);
  io.stdout(
    renderFields(
      [
        ['project', config === undefined ? 'none here (no monitor.config.ts)' : config.projectName],
        ['environment', config?.environment],
        [
          'account',
          missing.accountId === undefined ? notSet('MONITOR_ACCOUNT_ID') : escapeTerminal(missing.accountId),
        ],
        [
          'base URL',
          missing.baseUrl === undefined
            ? notSet('MONITOR_BASE_URL, or api.baseUrl in the config')
            : escapeTerminal(missing.baseUrl),
        ],
        ['API key', missing.keySet ? 'set (MONITOR_API_KEY)' : notSet('MONITOR_API_KEY')],
      ].map(([label, value]) => [label as string, value === undefined ? undefined : painted(value)]),
      p,
    ),
  );
  io.stderr(`${p.red('error')}: ${escapeTerminal(missing.problem.message)}\n`);
  if (missing.problem.hint !== undefined)
    io.stderr(`${p.dim('hint')}: ${escapeTerminal(missing.problem.hint)}\n`);
  return EXIT.error;
}

const refusedKey = (check: KeyCheck) => check.code === 'unauthorized' || check.code === 'forbidden';
const isSet = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? '').trim() !== '';

/**
 * The credentials a command would use here and where each came from: the embedded emulator's
 * (started, and closed by `close`) with `--local`, else the environment and the config.
 */
async function accountOf(
  args: WhoamiArgs,
  env: NodeJS.ProcessEnv,
  project: ProjectConfig,
  cwd: string,
): Promise<{ credentials: Credentials; sources: Sources; close: () => Promise<void> } | Missing> {
  const config = project?.config;
  if (args.local === true) {
    const emulator = await startLocalEmulator(project?.projectDir ?? cwd, config?.environment);
    const source = 'the embedded emulator';
    return {
      credentials: emulator.credentials,
      sources: { account: source, baseUrl: source, key: source },
      close: emulator.close,
    };
  }
  const withAccount = accountEnv(env, config);
  let credentials: Credentials;
  try {
    credentials = credentialsFromEnv(withAccount, config?.baseUrl);
  } catch (e) {
    // What it would use is what people run whoami to see: shown with what is missing.
    // Only a UUID is shown: a value that is not one may be another variable's (a key, swapped).
    const accountId = nonEmpty(withAccount.MONITOR_ACCOUNT_ID);
    return {
      problem: e as Error & { code?: string; hint?: string },
      accountId:
        accountId === undefined || UUID.test(accountId)
          ? accountId
          : `set, not a UUID (${accountId.length} characters)`,
      baseUrl: nonEmpty(env.MONITOR_BASE_URL) ?? config?.baseUrl,
      keySet: isSet(env, 'MONITOR_API_KEY'),
    };
  }
  return {
    credentials,
    sources: {
      account:
        config?.accountId !== undefined
          ? `environment ${config.environment ?? ''} in the config`
          : 'MONITOR_ACCOUNT_ID',
      baseUrl: isSet(env, 'MONITOR_BASE_URL') ? 'MONITOR_BASE_URL' : 'the config',
      key: 'MONITOR_API_KEY',
    },
    close: async () => {},
  };
}

/** Ask the service for one check group: the cheapest call that needs the key. Closes the client. */
async function checkKey(client: ReturnType<typeof clientFor>): Promise<KeyCheck> {
  try {
    await client.checkGroups.list({ limit: 1 });
    return { accepted: true };
  } catch (e) {
    const error = e as { code?: string; message: string; hint?: string };
    return {
      accepted: false,
      ...(error.code === undefined ? {} : { code: error.code }),
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  } finally {
    await client.close();
  }
}

/** Where state would be kept here, in words; undefined outside a project (and without --local). */
function stateDescription(
  args: WhoamiArgs,
  env: NodeJS.ProcessEnv,
  project: ProjectConfig,
  cwd: string,
): string | undefined {
  const config = project?.config;
  if (args.local === true) {
    const dir = join(localAccountDir(project?.projectDir ?? cwd, config?.environment), 'state');
    return `files in ${relative(cwd, dir) || '.'}/`;
  }
  if (isSet(env, 'MONITOR_STATE_URL')) return 'postgres (MONITOR_STATE_URL)';
  if (config?.stateUrl !== undefined) return 'postgres (the config)';
  return config === undefined ? undefined : `files in ${relative(cwd, config.stateDir) || '.'}`;
}

/** The fields for people, each with where it came from. */
function renderWhoami(
  project: ProjectConfig,
  credentials: Credentials,
  sources: Sources,
  check: KeyCheck,
  state: string | undefined,
  cwd: string,
  p: ReturnType<typeof paint>,
): string {
  const config = project?.config;
  const keyVerdict = check.accepted
    ? p.green('accepted by the service')
    : refusedKey(check)
      ? p.red(`refused (${escapeTerminal(check.message ?? '')})`)
      : p.yellow(`not checked: the service did not answer (${escapeTerminal(check.message ?? '')})`);
  return renderFields(
    [
      [
        'project',
        config === undefined
          ? 'none here (no monitor.config.ts)'
          : `${config.projectName} (${relative(cwd, project?.configPath ?? '') || project?.configPath})`,
      ],
      [
        'environment',
        config === undefined
          ? undefined
          : (config.environment ??
            (config.environments.length > 0
              ? `none chosen (${config.environments.join(', ')}): pass --env NAME or set MONITOR_ENV`
              : 'none defined')),
      ],
      ['account', painted(`${escapeTerminal(credentials.accountId)}  ${p.dim(`from ${sources.account}`)}`)],
      ['base URL', painted(`${escapeTerminal(credentials.baseUrl)}  ${p.dim(`from ${sources.baseUrl}`)}`)],
      ['API key', painted(`from ${sources.key}: ${keyVerdict}`)],
      ['state', state],
    ],
    p,
  );
}

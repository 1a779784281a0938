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
  const set = (name: string) => (io.env[name] ?? '').trim() !== '';
  let close = async () => {};
  let credentials: { apiKey: string; accountId: string; baseUrl: string };
  const sources = { account: '', baseUrl: '', key: '' };
  if (args.local === true) {
    const emulator = await startLocalEmulator(project?.projectDir ?? io.cwd, project?.config.environment);
    close = emulator.close;
    credentials = emulator.credentials;
    Object.assign(sources, {
      account: 'the embedded emulator',
      baseUrl: 'the embedded emulator',
      key: 'the embedded emulator',
    });
  } else {
    const accountId = config?.accountId;
    credentials = credentialsFromEnv(accountEnv(io.env, config), config?.baseUrl);
    sources.account =
      accountId !== undefined
        ? `environment ${config?.environment ?? ''} in the config`
        : 'MONITOR_ACCOUNT_ID';
    sources.baseUrl = set('MONITOR_BASE_URL') ? 'MONITOR_BASE_URL' : 'the config';
    sources.key = 'MONITOR_API_KEY';
  }
  out.account = { id: credentials.accountId, local: args.local === true };
  const client = clientFor(credentials, io, {});
  let check: { accepted: boolean; code?: string; message?: string; hint?: string };
  try {
    await client.checkGroups.list({ limit: 1 });
    check = { accepted: true };
  } catch (e) {
    const error = e as { code?: string; message: string; hint?: string };
    check = {
      accepted: false,
      ...(error.code === undefined ? {} : { code: error.code }),
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
  } finally {
    await client.close();
    await close();
  }
  const state =
    args.local === true
      ? `files in ${relative(io.cwd, join(localAccountDir(project?.projectDir ?? io.cwd, config?.environment), 'state')) || '.'}/`
      : set('MONITOR_STATE_URL')
        ? 'postgres (MONITOR_STATE_URL)'
        : config?.stateUrl !== undefined
          ? 'postgres (the config)'
          : config === undefined
            ? undefined
            : `files in ${relative(io.cwd, config.stateDir) || '.'}`;
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
    const refused = check.code === 'unauthorized' || check.code === 'forbidden';
    out.error = {
      code: check.code ?? 'unauthorized',
      message: refused
        ? `the service refused the key: ${check.message ?? ''}`
        : `could not ask the service: ${check.message ?? ''}`,
      ...(check.hint === undefined ? {} : { hint: check.hint }),
    };
  }
  if (!out.json) {
    const p = paint(io.color);
    io.stdout(
      renderFields(
        [
          [
            'project',
            config === undefined
              ? 'none here (no monitor.config.ts)'
              : `${config.projectName} (${relative(io.cwd, project?.configPath ?? '') || project?.configPath})`,
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
          [
            'account',
            painted(`${escapeTerminal(credentials.accountId)}  ${p.dim(`from ${sources.account}`)}`),
          ],
          [
            'base URL',
            painted(`${escapeTerminal(credentials.baseUrl)}  ${p.dim(`from ${sources.baseUrl}`)}`),
          ],
          [
            'API key',
            painted(
              `from ${sources.key}: ${
                check.accepted
                  ? p.green('accepted by the service')
                  : check.code === 'unauthorized' || check.code === 'forbidden'
                    ? p.red(`refused (${escapeTerminal(check.message ?? '')})`)
                    : p.yellow(
                        `not checked: the service did not answer (${escapeTerminal(check.message ?? '')})`,
                      )
              }`,
            ),
          ],
          ['state', state],
        ],
        p,
      ),
    );
    if (!check.accepted && check.hint !== undefined)
      io.stderr(`${p.dim('hint')}: ${escapeTerminal(check.hint)}\n`);
  }
  return check.accepted ? EXIT.ok : EXIT.error;
}

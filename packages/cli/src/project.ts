import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@monitor/api';
import {
  type AccountSnapshot,
  blockingFindings,
  describeConflict,
  LOCAL_SERVICE,
  type LoadedProject,
  type LoadOptions,
  type OtherProjects,
  openStateBackend,
  type Plan,
  type ProjectConfig,
  projectResponses,
  ROUTING_TEST,
  readAccount,
  requireEnvironment,
  type StateBackend,
  serviceIdentity,
  type Target,
} from '@monitor/engine';
import { localRoot } from '@monitor/engine/config-location';
import { escapeTerminal } from '@monitor/engine/escape';
import { accountBudget, accountEnv, type Credentials, clientFor, credentialsFromEnv } from './account.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { diagnosticsToJson, formatDiagnostic } from './format-diagnostics.js';
import { CLEAR_LINE, paint } from './io.js';
import { startLocalEmulator } from './local-emulator.js';
import { environmentOf, type ProjectArgs } from './options.js';
import { otherProjectsOf } from './other-projects.js';
import type { RunContext } from './output.js';
import { validateOnce } from './project-loads.js';
import { sharedLiveRead } from './shared-reads.js';

/**
 * Load the project. Its diagnostics go to the output; an invalid project prints them and gives
 * exit code 3 before anything is changed.
 */
export async function loadProject(
  args: ProjectArgs,
  { io, out }: RunContext,
  options: Pick<LoadOptions, 'allowUnmatchedIncludes' | 'onConfig'> = {},
): Promise<LoadedProject | ExitCode> {
  // Bundling and running a large project takes a moment: say so on a terminal.
  const showLoading = io.interactive && !out.json;
  if (showLoading) io.stderr(paint(io.color).dim('Loading the project…'));
  const report = await validateOnce({
    cwd: io.cwd,
    ...(args.config === undefined ? {} : { config: args.config }),
    environment: environmentOf(args, io.env),
    ...options,
  }).finally(() => {
    if (showLoading) io.stderr(CLEAR_LINE);
  });
  if (out.json) out.diagnostics = diagnosticsToJson(report.diagnostics, io.cwd);
  out.project = report.project?.config.projectName ?? null;
  out.environment = report.project?.config.environment ?? null;
  const p = paint(io.color);
  if (!out.json) for (const d of report.diagnostics) io.stderr(`${formatDiagnostic(d, io.cwd, p)}\n`);
  // Policy findings do not stop a plan: the plan carries them, and deploy refuses an error there.
  const loaded = report.diagnostics.every((d) => d.severity !== 'error');
  if (loaded && report.project !== undefined) {
    requireEnvironment(report.project.config);
    return report.project;
  }
  const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
  const message = `the project is invalid: ${errors} error${errors === 1 ? '' : 's'}; nothing was changed`;
  out.error = { code: 'invalid_project', message };
  if (!out.json) io.stderr(`${p.red('✗')} ${message}\n`);
  return EXIT.invalid;
}

/**
 * A plan with conflicts cannot be deployed: each conflict becomes an error diagnostic at its
 * construct, and the run ends with exit 3 (the plan itself, which lists them, is printed first).
 */
export function reportConflicts(plan: Plan, { io, out }: RunContext): ExitCode {
  const diagnostics = plan.conflicts.map((c) => {
    const { message, hint } = describeConflict(c);
    return {
      severity: 'error' as const,
      construct: c.construct,
      logicalId: c.logicalId,
      path: '',
      message,
      hint,
      location: c.location,
    };
  });
  if (out.json) out.diagnostics = [...out.diagnostics, ...diagnosticsToJson(diagnostics, io.cwd)];
  const n = plan.conflicts.length;
  const message = `${n} construct${n === 1 ? '' : 's'} in conflict with the account; nothing was changed`;
  const hint = 'each conflict above says how to resolve it';
  out.error = { code: 'conflicts', message, hint };
  if (!out.json) {
    const p = paint(io.color);
    io.stderr(`${p.red('error')}: ${message}\n${p.dim('hint')}: ${hint}\n`);
  }
  return EXIT.invalid;
}

/** A plan's policy findings join the output's diagnostics, for --json (the plan, printed first, lists them). */
export function recordFindings(plan: Plan, { io, out }: RunContext): void {
  if (out.json) out.diagnostics = [...out.diagnostics, ...diagnosticsToJson(plan.findings, io.cwd)];
}

/**
 * A plan with a policy finding of severity `error` cannot be deployed: the run ends with exit 3, as
 * for conflicts (the plan, printed first, lists the findings).
 */
export function reportPolicyErrors(plan: Plan, { io, out }: RunContext): ExitCode {
  const errors = blockingFindings(plan.findings);
  const tests = errors.filter((f) => f.policy === ROUTING_TEST).length;
  const policies = errors.length - tests;
  const what = [
    ...(policies === 0 ? [] : [`${policies} policy error${policies === 1 ? '' : 's'}`]),
    ...(tests === 0 ? [] : [`${tests} routing expectation${tests === 1 ? '' : 's'} not met`]),
  ].join(' and ');
  const message = `${what}: deploy refuses this plan; nothing was changed`;
  const hints = [
    ...(policies === 0
      ? []
      : [
          'fix what each error above says; to excuse one construct, add policyExceptions: [{ policy, reason }] to its options (the third argument of new); to change a policy, set policySeverity in the config',
        ]),
    ...(tests === 0
      ? []
      : [
          'each routing test above says who its group pages and what it expects: fix the code, or the test in the config if the route is right (monitor routes --test runs them alone)',
        ]),
  ];
  const hint = hints.join('; ');
  out.error = { code: 'policy_errors', message, hint };
  if (!out.json) {
    const p = paint(io.color);
    io.stderr(`${p.red('error')}: ${message}\n${p.dim('hint')}: ${hint}\n`);
  }
  return EXIT.invalid;
}

/** An account to work on: the engine's target, and how to close what was opened for it. */
export interface Connection {
  target: Target;
  client: Client;
  accountId: string;
  local: boolean;
  close(): Promise<void>;
}

/** A project and its account, as `loadAndConnect` gives them. */
export interface ConnectedProject {
  project: LoadedProject;
  connection: Connection;
  /** The account as the plan reads it, when asked for: read while the construct files loaded. */
  snapshot: Promise<AccountSnapshot> | undefined;
}

/**
 * Load the project and connect to its account. Connecting starts as soon as the config is read,
 * while the construct files bundle and run: with `--local` the emulator's thread, the client and
 * the state backend; with `readAccount` (diff: it takes no lock) also the reading of state and
 * the account. A project that does not load is reported as `loadProject` reports it, and what was
 * opened for it is closed; only then do connection errors count.
 */
export async function loadAndConnect(
  args: ProjectArgs,
  ctx: RunContext,
  options: { allowUnmatchedIncludes?: boolean; readAccount?: boolean } = {},
): Promise<ConnectedProject | ExitCode> {
  let opening: Promise<OpenAccount> | undefined;
  let snapshot: Promise<AccountSnapshot> | undefined;
  const closeOpened = () => opening?.then((account) => account.close()).catch(() => undefined);
  let project: LoadedProject | ExitCode;
  try {
    project = await loadProject(args, ctx, {
      ...(options.allowUnmatchedIncludes === undefined
        ? {}
        : { allowUnmatchedIncludes: options.allowUnmatchedIncludes }),
      onConfig: (config) => {
        opening = openAccount(args, ctx, config);
        if (options.readAccount === true) {
          snapshot = opening.then((account) =>
            readAccount({ ...account, live: sharedLiveRead(account, account.client) }),
          );
          // Awaited once the project has loaded; a failure before then is reported there, or not at all.
          snapshot.catch(() => undefined);
        }
        opening.catch(() => undefined);
      },
    });
  } catch (error) {
    // An emulator thread or a database connection left open would keep the process alive.
    await closeOpened();
    throw error;
  }
  if (typeof project === 'number') {
    await closeOpened();
    return project;
  }
  // The config was read: loadProject called onConfig.
  const account = await (opening ?? openAccount(args, ctx, project));
  ctx.out.account = { id: account.accountId, local: account.local };
  const { backend, client, accountId, local, service, secretKey, otherProjects, close } = account;
  return {
    project,
    connection: {
      target: { project, client, accountId, service, backend, secretKey, otherProjects },
      client,
      accountId,
      local,
      close,
    },
    snapshot,
  };
}

/** What `openAccount` opened: a client and the state backend of one account. */
interface OpenAccount {
  client: Client;
  backend: StateBackend;
  accountId: string;
  local: boolean;
  /** Which service the account is on: state of another is refused. */
  service: string;
  secretKey: string | undefined;
  /** The other projects of the account, that `X.fromProject` references resolve against. */
  otherProjects: OtherProjects | undefined;
  close(): Promise<void>;
}

/**
 * Open the account: `MONITOR_*` variables (the config's `api.baseUrl` as a fallback), or with
 * `--local` the embedded emulator persisted under `.monitor/local/` with its dev account (loaded
 * only then), and the state backend of that account.
 */
async function openAccount(
  args: ProjectArgs,
  { io }: RunContext,
  project: Pick<ProjectConfig, 'projectDir' | 'config'>,
): Promise<OpenAccount> {
  let closeEmulator = async () => {};
  let credentials: Credentials;
  const local = args.local === true;
  if (local) {
    const emulator = await startLocalEmulator(project.projectDir, project.config.environment);
    closeEmulator = emulator.close;
    credentials = emulator.credentials;
  } else {
    credentials = credentialsFromEnv(accountEnv(io.env, project.config), project.config.baseUrl);
  }
  const knownResponses = projectResponses(project.projectDir);
  // Every run calling the account at once draws on one budget (the embedded emulator's is this process's).
  const budget = await accountBudget(credentials, io, {
    rateLimit: args.rateLimit,
    // The embedded emulator counts the service's usual limit, whatever the real account's is.
    configLimit: local ? undefined : project.config.rateLimit,
    stateUrl: io.env.MONITOR_STATE_URL?.trim() || project.config.stateUrl,
    local,
  });
  const client = clientFor(credentials, io, {
    ...args,
    timeoutSeconds: args.timeout,
    knownResponses,
    budget,
  });
  const backend = openStateBackend(project, credentials.accountId, {
    local,
    stateUrl: io.env.MONITOR_STATE_URL,
  });
  const secretKey = io.env.MONITOR_STATE_SECRET ?? (local ? localStateSecret(project.projectDir) : undefined);
  return {
    client,
    backend,
    accountId: credentials.accountId,
    local,
    service: local ? LOCAL_SERVICE : serviceIdentity(credentials.baseUrl),
    secretKey,
    otherProjects: otherProjectsOf(project, backend, { accountId: credentials.accountId, local }),
    close: async () => {
      knownResponses?.save();
      await backend.close();
      await client.close();
      await budget?.close();
      await closeEmulator();
    },
  };
}

/**
 * The state secret of the embedded emulator's account when `MONITOR_STATE_SECRET` is not set: made
 * once per checkout beside the emulator's data (`.monitor/local/`, never committed), as local as
 * that account is.
 */
function localStateSecret(projectDir: string): string {
  const file = join(localRoot(projectDir), '.monitor', 'local', 'state-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    // Another run made it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw e;
  }
}

/** `monitor diff: project (staging) → account 123 (local emulator)`, the first line of project commands. */
export function headerLine(
  command: string,
  project: LoadedProject,
  connection: Connection,
  note = '',
): string {
  const where = `account ${connection.accountId}${connection.local ? ' (local emulator)' : ''}`;
  const environment = project.config.environment === undefined ? '' : ` (${project.config.environment})`;
  return `${escapeTerminal(`monitor ${command}: ${project.config.projectName}${environment} → ${where}${note}`)}\n\n`;
}

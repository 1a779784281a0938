import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProjectConfig, Rebind, RebindEntry, StateBackend, StateTarget } from '@monitor/engine';
import { escapeTerminal as t } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { CommandError, clientFor, credentialsFromEnv } from '../account.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { startLocalEmulator } from '../local-emulator.js';
import { staleLockNotice } from '../lock-notice.js';
import { environmentOf, UsageError } from '../options.js';
import type { RunContext } from '../output.js';

const ACTIONS = ['list', 'show', 'mv', 'rm', 'pull', 'push', 'migrate', 'unlock', 'rebind'] as const;
type Action = (typeof ACTIONS)[number];

export interface StateArgs {
  action: Action;
  args?: string[] | undefined;
  config?: string | undefined;
  local?: boolean | undefined;
  env?: string | undefined;
  json?: boolean | undefined;
  account?: string | undefined;
  to?: string | undefined;
  force?: boolean | undefined;
  yes?: boolean | undefined;
  lockTimeout?: number | undefined;
}

export const builder = (y: Argv) =>
  y
    .positional('action', {
      choices: ACTIONS,
      describe: 'What to do with the state of this project and account',
    })
    .positional('args', { type: 'string', array: true, describe: 'The action’s arguments' })
    .option('config', {
      type: 'string',
      describe: 'Path of monitor.config.ts (default: the nearest one upwards)',
    })
    .option('env', {
      type: 'string',
      describe: 'The environment, when the config defines them (default $MONITOR_ENV)',
    })
    .option('local', {
      type: 'boolean',
      describe: 'The state of the embedded emulator’s account (.monitor/local/)',
    })
    .option('account', {
      type: 'string',
      describe: 'The account whose state this is (default: MONITOR_ACCOUNT_ID)',
    })
    .option('json', { type: 'boolean', describe: 'Print one JSON envelope on stdout' })
    .option('to', {
      type: 'string',
      describe: 'migrate: the destination, a postgres:// URL or a directory for state files',
    })
    .option('yes', {
      type: 'boolean',
      describe:
        'rebind: go ahead without asking (needed off a terminal), after the list of what is re-pointed',
    })
    .option('force', {
      type: 'boolean',
      describe:
        'push: even when the state moved since it was pulled; migrate: over a destination that has state; unlock: needed',
    })
    .option('lock-timeout', {
      type: 'number',
      default: 0,
      describe: 'Seconds to wait for a deploy that holds the state lock',
    })
    .example('$0 state list', 'every resource this project owns in the account')
    .example('$0 state show CheckGroup:payments', 'one entry')
    .example('$0 state mv CheckGroup:old CheckGroup:new', 'rename an entry (as aliases would)')
    .example('$0 state rm AlertChannel:legacy', 'forget an entry; the resource stays in the account')
    .example('$0 state pull > state.json && $0 state push state.json', 'edit by hand, safely')
    .example('$0 state migrate --to "$MONITOR_STATE_URL"', 'move the state from files into PostgreSQL')
    .example('$0 state unlock --force', 'clear the lock of a run that died')
    .example('$0 state rebind', 'the service moved to MONITOR_BASE_URL: record that the state belongs there')
    .epilogue(
      'State is where it is for deploy: MONITOR_STATE_URL, else the config’s state settings. Commands that change it take the deploy lock, and go through the checks a deploy does: no entry may take a resource another project owns (--force never overrides that), and nothing is written that would leave the state damaged. list, show, pull and rm work on a damaged state, so that rm or push --force can repair it.',
    );

/** `monitor state <action>`: read and repair what the project owns, without touching the account. */
export async function run(args: StateArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const { loadConfig, openStateBackend, requireEnvironment } = await import('@monitor/engine');
  const project = await loadConfig({
    cwd: io.cwd,
    ...(args.config === undefined ? {} : { config: args.config }),
    environment: environmentOf(args, io.env),
  });
  out.project = project.config.projectName;
  out.environment = project.config.environment ?? null;
  if (args.local !== true) requireEnvironment(project.config);
  const accountId = await accountOf(args, io.env, project.config.accountId);
  out.account = { id: accountId, local: args.local === true };
  const backend = openStateBackend(project, accountId, {
    local: args.local === true,
    stateUrl: io.env.MONITOR_STATE_URL,
  });
  const target: StateTarget = {
    backend,
    accountId,
    service: await serviceOf(args, io.env, project),
    command: `monitor state ${args.action}`,
    lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
    onEvent: (event) => {
      if (event.type === 'lock-stale') io.stderr(staleLockNotice(event.removed));
    },
  };
  try {
    return await perform(args, ctx, target, project);
  } finally {
    await backend.close();
  }
}

/** The service this state is for, when the run knows it: the local emulator, or the base URL. */
async function serviceOf(
  args: StateArgs,
  env: Record<string, string | undefined>,
  project: ProjectConfig,
): Promise<string | undefined> {
  const { LOCAL_SERVICE, serviceIdentity } = await import('@monitor/engine');
  if (args.local === true) return LOCAL_SERVICE;
  const baseUrl = env.MONITOR_BASE_URL?.trim() || project.config.baseUrl;
  if (baseUrl === undefined || baseUrl === '') return undefined;
  try {
    return serviceIdentity(baseUrl);
  } catch {
    throw new UsageError(
      `MONITOR_BASE_URL "${baseUrl}" is not a URL`,
      'set it to the service API, e.g. https://api.example.com',
    );
  }
}

async function accountOf(
  args: StateArgs,
  env: Record<string, string | undefined>,
  environmentAccount: string | undefined,
): Promise<string> {
  if (args.local === true) {
    const { DEV_ACCOUNT_ID } = await import('@monitor/emulator');
    return DEV_ACCOUNT_ID;
  }
  const account = args.account ?? environmentAccount ?? env.MONITOR_ACCOUNT_ID;
  if (account === undefined || account.trim() === '') {
    throw new UsageError(
      'which account? MONITOR_ACCOUNT_ID is not set',
      'export MONITOR_ACCOUNT_ID, pass --account ID, or --local for the embedded emulator',
    );
  }
  return account.trim();
}

function operands(args: StateArgs, count: number, usage: string): string[] {
  const given = args.args ?? [];
  if (given.length !== count)
    throw new UsageError(
      `monitor state ${args.action} takes ${usage}`,
      `e.g. monitor state ${args.action} ${usage}`,
    );
  return given;
}

/** What an action of `monitor state` works with. */
interface ActionContext {
  args: StateArgs;
  io: RunContext['io'];
  out: RunContext['out'];
  target: StateTarget;
  project: ProjectConfig;
  engine: typeof import('@monitor/engine');
  p: ReturnType<typeof paint>;
  /** Text for people: nothing with --json, where the envelope tells it. */
  say: (text: string) => void;
}

async function perform(
  args: StateArgs,
  { io, out }: RunContext,
  target: StateTarget,
  project: ProjectConfig,
): Promise<ExitCode> {
  const say = (text: string) => {
    if (!out.json) io.stdout(text);
  };
  const engine = await import('@monitor/engine');
  return ACTION_RUNS[args.action]({ args, io, out, target, project, engine, p: paint(io.color), say });
}

const ACTION_RUNS: Record<Action, (context: ActionContext) => Promise<ExitCode>> = {
  list: listEntries,
  show: showEntry,
  mv: moveEntry,
  rm: removeEntry,
  pull: pullState,
  push: pushState,
  migrate: migrateState,
  unlock: unlockState,
  rebind: rebindState,
};

/** `state list`: every entry, in a table, with what is damaged and how to repair it. */
async function listEntries({
  args,
  io,
  out,
  project,
  engine,
  p,
  say,
  target,
}: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  operands(args, 0, '(no arguments)');
  const { state, problems, location } = await engine.listState(backend);
  const entries = Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : 1));
  out.result = {
    location,
    serial: state.serial,
    service: state.service ?? null,
    entries: entries.map(([key, e]) => ({ key, ...e })),
    pendingCreates: state.pendingCreates,
    problems,
  };
  say(p.dim(`${t(`state of ${project.config.projectName} in ${location}, serial ${state.serial}`)}\n\n`));
  if (entries.length === 0) say('No entries: this project owns nothing in the account yet.\n');
  else {
    const { renderTable } = await import('../tables.js');
    say(
      renderTable(
        entries,
        [
          { header: 'ENTRY', value: ([key]) => key, shrink: true },
          { header: 'PHYSICAL ID', value: ([, e]) => String(e.physicalId) },
          {
            header: 'NAME',
            value: ([, e]) =>
              e.identity === undefined ? '' : engine.describeIdentity(e.identity).replace(/^[a-zA-Z]+:/, ''),
            shrink: true,
          },
          { header: 'PROTECT', value: ([, e]) => (e.protect ? 'protected' : '') },
          {
            header: 'SECRETS',
            value: ([, e]) => String(Object.keys(e.secretHashes).length),
            align: 'right',
          },
        ],
        io,
        p,
      ),
    );
  }
  if (state.pendingCreates.length > 0)
    say(p.yellow(`\nPending creates (an interrupted deploy): ${t(state.pendingCreates.join(', '))}\n`));
  for (const problem of problems) {
    say(p.red(`\n✗ damaged: ${problem.message}\n`));
    say(
      p.dim(
        `  repair: monitor state rm "${problem.keys[problem.keys.length - 1]}", or monitor state push --force FILE\n`,
      ),
    );
  }
  if (entries.length > 0) say(p.dim(`\n${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}\n`));
  return EXIT.ok;
}

/** `state show KEY`: one entry's fields. */
async function showEntry({ args, out, engine, p, say, target }: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  const [key] = operands(args, 1, '<Kind:logical-id>') as [string];
  const entry = await engine.showEntry(backend, key);
  out.result = { key, ...entry };
  const { renderFields } = await import('../tables.js');
  say(
    `${p.bold(t(key))}\n${renderFields(
      [
        ['kind', entry.kind],
        ['logical id', entry.logicalId],
        ['physical id', String(entry.physicalId)],
        ['identity', entry.identity === undefined ? '(none)' : engine.describeIdentity(entry.identity)],
        ['protect', String(entry.protect)],
        ['applied hash', entry.appliedHash],
        ['secrets', Object.keys(entry.secretHashes).join(', ') || '(none)'],
      ],
      p,
    ).replace(/^/gm, '  ')}`,
  );
  return EXIT.ok;
}

/** `state mv FROM TO`: the entry takes another logical id; the resource keeps its id. */
async function moveEntry({ args, out, target, engine, p, say }: ActionContext): Promise<ExitCode> {
  const [from, to] = operands(args, 2, '<Kind:from-id> <Kind:to-id>') as [string, string];
  out.result = { moved: await engine.moveEntry(target, from, to) };
  say(
    `${p.green('✓')} ${t(`moved ${from} to ${to}; the resource keeps its id. Rename the construct to "${to.split(':').slice(1).join(':')}" too.`)}\n`,
  );
  return EXIT.ok;
}

/** `state rm KEY`: forget an entry; the resource stays in the account. */
async function removeEntry({ args, out, target, engine, p, say }: ActionContext): Promise<ExitCode> {
  const [key] = operands(args, 1, '<Kind:logical-id>') as [string];
  const removed = await engine.removeEntry(target, key);
  out.result = { removed: { key, ...removed } };
  say(
    `${p.green('✓')} forgot ${t(`${key} (id ${String(removed.physicalId)})`)}; the resource stays in the account, unmanaged. If its construct is still in the code, the next diff shows it as a conflict.\n`,
  );
  return EXIT.ok;
}

/** `state pull`: the state itself on stdout, as push takes it back (the envelope with --json). */
async function pullState({ args, io, out, engine, target }: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  operands(args, 0, '(no arguments)');
  const state = await engine.pullState(backend);
  if (out.json) out.result = { state: JSON.parse(engine.serializeState(state)) };
  else io.stdout(engine.serializeState(state));
  return EXIT.ok;
}

/** `state push FILE`: replace the state with a file's, through the checks a deploy makes. */
async function pushState({ args, io, out, target, engine, p, say }: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  const [file] = operands(args, 1, '<file>') as [string];
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read ${path}: ${(e as Error).message}`,
      'save one with monitor state pull > state.json',
    );
  }
  const pushed = engine.parseStateText(text, path);
  const saved = await engine.pushState(target, pushed, { source: file, force: args.force === true });
  out.result = { pushed: saved.entries, serial: saved.serial };
  say(`${p.green('✓')} pushed ${saved.entries} entries to ${backend.location} (serial ${saved.serial})\n`);
  return EXIT.ok;
}

/** `state migrate --to`: copy the state to PostgreSQL or a directory; the source stays as it was. */
async function migrateState({
  args,
  io,
  out,
  target,
  project,
  engine,
  p,
  say,
}: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  operands(args, 0, '--to <postgres-url|directory>');
  if (args.to === undefined || args.to.trim() === '') {
    throw new UsageError(
      'monitor state migrate needs --to',
      'e.g. --to postgres://user@host/db, or --to .monitor/state',
    );
  }
  const destination: StateBackend = engine.stateBackendAt(args.to, {
    baseDir: io.cwd,
    project: project.config.projectName,
    accountId: target.accountId,
  });
  try {
    const moved = await engine.migrateState(target, destination, { force: args.force === true });
    out.result = { from: backend.location, to: destination.location, ...moved };
    const use = /^postgres/.test(args.to)
      ? 'set MONITOR_STATE_URL (or state: { backend: "postgres", url } in the config)'
      : `set state: { path: ${JSON.stringify(args.to)} } in the config and unset MONITOR_STATE_URL`;
    say(
      `${p.green('✓')} copied ${moved.entries} entries from ${backend.location} to ${destination.location}; the source is left as it was.\nNext: ${use}, then run monitor diff: it should say No changes.\n`,
    );
    return EXIT.ok;
  } finally {
    await destination.close();
  }
}

/** `state unlock --force`: clear the lock of a run that died. */
async function unlockState({ args, out, engine, p, say, target }: ActionContext): Promise<ExitCode> {
  const { backend } = target;
  operands(args, 0, '--force');
  if (args.force !== true) {
    throw new UsageError(
      'monitor state unlock changes the lock of a run: it needs --force',
      'make sure no deploy is running, then add --force',
    );
  }
  const cleared = await backend.forceUnlock();
  out.result = { cleared: cleared.holder ?? null, removed: cleared.removed ?? null };
  const removed = cleared.removed === undefined ? '' : t(cleared.removed);
  say(
    cleared.removed === undefined
      ? 'The state was not locked.\n'
      : cleared.holder === undefined
        ? `${p.green('✓')} removed ${removed}\n`
        : `${p.green('✓')} cleared the lock of ${t(engine.describeHolder(cleared.holder))}: removed ${removed}\n`,
  );
  return EXIT.ok;
}

/**
 * `state rebind`: record that the state belongs to the service at MONITOR_BASE_URL now. Each
 * entry is checked against what its id holds there; the list is shown and confirmed first.
 */
async function rebindState(ctx: ActionContext): Promise<ExitCode> {
  const { args, io, out, target, project, engine, p, say } = ctx;
  operands(args, 0, '(no arguments)');
  const account = await rebindAccount(args, io, project);
  try {
    const client = clientFor(account.credentials, io, {});
    const outcome = await engine.rebindState(
      target,
      () => engine.readLive(client),
      async (rebind) => {
        say(rebindListing(rebind, p));
        return rebindConsent(args, io, rebind);
      },
    );
    if (outcome.status === 'refused') throw new CommandError('refused', outcome.reason, outcome.hint);
    out.result = {
      rebound: { from: outcome.from, to: outcome.to, entries: outcome.entries, forgotten: outcome.forgotten },
    };
    say(
      `${p.green('✓')} the state now belongs to ${t(outcome.to)}${outcome.from === null ? '' : ` (it was ${t(outcome.from)})`}: ${outcome.entries.length - outcome.forgotten.length} entries re-pointed, ${outcome.forgotten.length} forgotten. Run monitor diff next.\n`,
    );
    return EXIT.ok;
  } finally {
    await account.close();
  }
}

/** The account rebind reads: the embedded emulator's with --local, else MONITOR_*'s. */
async function rebindAccount(args: StateArgs, io: RunContext['io'], project: ProjectConfig) {
  if (args.local === true) return startLocalEmulator(project.projectDir, project.config.environment);
  return { credentials: credentialsFromEnv(io.env, project.config.baseUrl), close: async () => {} };
}

const REBIND_STATUS: Record<RebindEntry['status'], string> = {
  same: 're-pointed: the same resource is there',
  missing: 're-pointed: nothing is at its id there (the next plan sees it gone)',
  other: 'forgotten: another resource is at its id there (or the same one renamed)',
  unchecked: 'forgotten: the entry records nothing to tell its resource by',
};

/** What rebind will do to each entry, for the person who confirms it. */
function rebindListing(rebind: Rebind, p: ReturnType<typeof paint>): string {
  const lines = rebind.entries.map((e) => {
    const mark = e.status === 'same' || e.status === 'missing' ? p.green('→') : p.yellow('−');
    const there = e.found === undefined ? '' : `; there: ${t(e.found)}`;
    return `  ${mark} ${t(e.key)} (id ${t(String(e.physicalId))}, ${t(e.recorded)}${there}): ${REBIND_STATUS[e.status]}\n`;
  });
  return `Rebind the state from ${t(rebind.from ?? '(no service recorded)')} to ${t(rebind.to)}:\n${lines.join('')}${
    rebind.entries.some((e) => e.status === 'other' || e.status === 'unchecked')
      ? 'A forgotten resource is never changed or deleted there; if one is yours, adopt it (adopt: true) or run monitor import --recover.\n'
      : ''
  }`;
}

async function rebindConsent(
  args: StateArgs,
  io: RunContext['io'],
  rebind: Rebind,
): Promise<{ approved: true } | { approved: false; reason: string; hint?: string }> {
  if (args.yes === true) return { approved: true };
  if (!io.interactive) {
    return {
      approved: false,
      reason: 'refused: this is a non-interactive run and state rebind needs --yes. Nothing was changed.',
      hint: 'review the list above, then run monitor state rebind --yes',
    };
  }
  const answer = await io.prompt?.(`\nRecord the state as ${rebind.to}'s? Only "yes" is accepted: `);
  if (answer?.trim() === 'yes') return { approved: true };
  return {
    approved: false,
    reason: `Cancelled${answer === undefined ? ' (no answer)' : ''}: nothing was changed.`,
  };
}

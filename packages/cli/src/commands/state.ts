import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ProjectConfig, State, StateBackend, StateEntry } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { paint } from '../io.js';
import { environmentOf, UsageError } from '../options.js';
import type { RunContext } from '../output.js';

const ACTIONS = ['list', 'show', 'mv', 'rm', 'pull', 'push', 'migrate', 'unlock'] as const;
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
    .epilogue(
      'State is where it is for deploy: MONITOR_STATE_URL, else the config’s state settings. Commands that change it take the deploy lock.',
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
  try {
    return await perform(args, ctx, backend, project, accountId);
  } finally {
    await backend.close();
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

/** The entry at `Kind:logical-id`; a clear error, with near matches, when there is none. */
function entryAt(state: State, key: string): StateEntry {
  const entry = state.resources[key];
  if (entry !== undefined) return entry;
  const close = Object.keys(state.resources).filter((k) =>
    k.toLowerCase().includes(key.toLowerCase().split(':').pop() ?? ''),
  );
  throw new UsageError(
    `no entry "${key}" in the state`,
    close.length > 0
      ? `did you mean ${close.slice(0, 3).join(', ')}?`
      : 'list the entries with monitor state list',
  );
}

async function locked<T>(backend: StateBackend, args: StateArgs, body: () => Promise<T>): Promise<T> {
  const release = await backend.lock({
    command: `monitor state ${args.action}`,
    timeoutMs: (args.lockTimeout ?? 0) * 1000,
  });
  try {
    return await body();
  } finally {
    await release();
  }
}

async function perform(
  args: StateArgs,
  { io, out }: RunContext,
  backend: StateBackend,
  project: ProjectConfig,
  accountId: string,
): Promise<ExitCode> {
  const p = paint(io.color);
  const say = (text: string) => {
    if (!out.json) io.stdout(text);
  };
  const { parseStateText, serializeState, stateKey } = await import('@monitor/engine');
  switch (args.action) {
    case 'list': {
      operands(args, 0, '(no arguments)');
      const state = await backend.read();
      const entries = Object.entries(state.resources).sort(([a], [b]) => (a < b ? -1 : 1));
      out.result = {
        location: backend.location,
        serial: state.serial,
        entries: entries.map(([key, e]) => ({ key, ...e })),
        pendingCreates: state.pendingCreates,
      };
      say(
        p.dim(
          `${escapeTerminal(`state of ${project.config.projectName} in ${backend.location}, serial ${state.serial}`)}\n\n`,
        ),
      );
      if (entries.length === 0) {
        say('No entries: this project owns nothing in the account yet.\n');
        return EXIT.ok;
      }
      const rows = entries.map(([key, e]) => [
        escapeTerminal(key),
        escapeTerminal(String(e.physicalId)),
        e.protect ? 'protected' : '',
        String(Object.keys(e.secretHashes).length),
      ]);
      const head = ['ENTRY', 'PHYSICAL ID', 'PROTECT', 'SECRETS'];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
      const line = (cells: string[]) =>
        `${cells
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`;
      say(p.bold(line(head)));
      for (const row of rows) say(line(row));
      if (state.pendingCreates.length > 0)
        say(
          p.yellow(
            `\nPending creates (an interrupted deploy): ${escapeTerminal(state.pendingCreates.join(', '))}\n`,
          ),
        );
      say(p.dim(`\n${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}\n`));
      return EXIT.ok;
    }
    case 'show': {
      const [key] = operands(args, 1, '<Kind:logical-id>') as [string];
      const state = await backend.read();
      const entry = entryAt(state, key);
      out.result = { key, ...entry };
      const fields = `  kind          ${entry.kind}\n  logical id    ${entry.logicalId}\n  physical id   ${String(entry.physicalId)}\n  protect       ${String(entry.protect)}\n  applied hash  ${entry.appliedHash}\n  secrets       ${Object.keys(entry.secretHashes).join(', ') || '(none)'}`;
      say(`${p.bold(escapeTerminal(key))}\n${escapeTerminal(fields, { multiline: true })}\n`);
      return EXIT.ok;
    }
    case 'mv': {
      const [from, to] = operands(args, 2, '<Kind:from-id> <Kind:to-id>') as [string, string];
      await locked(backend, args, async () => {
        const state = await backend.read();
        const entry = entryAt(state, from);
        const [toKind, ...rest] = to.split(':');
        const toId = rest.join(':');
        if (toKind !== entry.kind || toId === '') {
          throw new UsageError(
            `"${to}" must be a ${entry.kind}:logical-id`,
            `e.g. monitor state mv ${from} ${entry.kind}:new-id`,
          );
        }
        if (state.resources[to] !== undefined)
          throw new UsageError(`"${to}" is already in the state`, `remove it first: monitor state rm ${to}`);
        const resources = { ...state.resources };
        delete resources[from];
        resources[stateKey(entry.kind, toId)] = { ...entry, logicalId: toId };
        await backend.commit({ ...state, resources });
      });
      out.result = { moved: { from, to } };
      say(
        `${p.green('✓')} ${escapeTerminal(`moved ${from} to ${to}; the resource keeps its id. Rename the construct to "${to.split(':').slice(1).join(':')}" too.`)}\n`,
      );
      return EXIT.ok;
    }
    case 'rm': {
      const [key] = operands(args, 1, '<Kind:logical-id>') as [string];
      const removed = await locked(backend, args, async () => {
        const state = await backend.read();
        const entry = entryAt(state, key);
        const resources = { ...state.resources };
        delete resources[key];
        await backend.commit({
          ...state,
          resources,
          pendingCreates: state.pendingCreates.filter((k) => k !== key),
        });
        return entry;
      });
      out.result = { removed: { key, ...removed } };
      say(
        `${p.green('✓')} forgot ${escapeTerminal(`${key} (id ${String(removed.physicalId)})`)}; the resource stays in the account, unmanaged. If its construct is still in the code, the next diff shows it as a conflict.\n`,
      );
      return EXIT.ok;
    }
    case 'pull': {
      operands(args, 0, '(no arguments)');
      const state = await backend.read();
      // The state itself on stdout, as push takes it back (the envelope with --json).
      if (out.json) out.result = { state: JSON.parse(serializeState(state)) };
      else io.stdout(serializeState(state));
      return EXIT.ok;
    }
    case 'push': {
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
      const pushed = parseStateText(text, path);
      if (pushed.accountId !== accountId) {
        throw new UsageError(
          `${file} is the state of account ${pushed.accountId}, not ${accountId}`,
          'push it with that account selected (--account)',
        );
      }
      const saved = await locked(backend, args, async () => {
        const current = await backend.read();
        if (current.serial !== pushed.serial && args.force !== true) {
          out.error = {
            code: 'stale_state',
            message: `the state moved since ${file} was pulled (serial ${pushed.serial} → ${current.serial}); nothing was pushed`,
            hint: 'pull again and redo the edit, or push anyway with --force',
          };
          return undefined;
        }
        return backend.commit({ ...pushed, serial: Math.max(current.serial, pushed.serial) });
      });
      if (saved === undefined) {
        if (!out.json)
          io.stderr(
            `${p.red('error')}: ${escapeTerminal(out.error?.message ?? '')}\n${p.dim('hint')}: ${out.error?.hint}\n`,
          );
        return EXIT.stalePlan;
      }
      out.result = { pushed: Object.keys(saved.resources).length, serial: saved.serial };
      say(
        `${p.green('✓')} pushed ${Object.keys(saved.resources).length} entries to ${backend.location} (serial ${saved.serial})\n`,
      );
      return EXIT.ok;
    }
    case 'migrate': {
      operands(args, 0, '--to <postgres-url|directory>');
      if (args.to === undefined || args.to.trim() === '') {
        throw new UsageError(
          'monitor state migrate needs --to',
          'e.g. --to postgres://user@host/db, or --to .monitor/state',
        );
      }
      const { FileStateBackend, PostgresStateBackend } = await import('@monitor/engine');
      const destination: StateBackend = /^postgres(ql)?:\/\//.test(args.to)
        ? new PostgresStateBackend({ url: args.to, project: project.config.projectName, accountId })
        : new FileStateBackend(resolve(io.cwd, args.to), accountId);
      if (destination.location === backend.location)
        throw new UsageError('--to is where the state already is', 'name the other backend');
      try {
        const moved = await locked(backend, args, () =>
          locked(destination, args, async () => {
            const source = await backend.read();
            const existing = await destination.read();
            if (Object.keys(existing.resources).length > 0 && args.force !== true) {
              throw new UsageError(
                `${destination.location} already holds ${Object.keys(existing.resources).length} entries for this project and account; nothing was moved`,
                'choose an empty destination, or replace it with --force',
              );
            }
            const saved = await destination.commit({
              ...source,
              serial: Math.max(source.serial, existing.serial),
            });
            return { entries: Object.keys(saved.resources).length, serial: saved.serial };
          }),
        );
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
    case 'unlock': {
      operands(args, 0, '--force');
      if (args.force !== true) {
        throw new UsageError(
          'monitor state unlock changes the lock of a run: it needs --force',
          'make sure no deploy is running, then add --force',
        );
      }
      const holder = await backend.forceUnlock();
      out.result = { cleared: holder ?? null };
      const { describeHolder } = await import('@monitor/engine');
      say(
        holder === undefined
          ? 'The state was not locked.\n'
          : `${p.green('✓')} cleared the lock of ${escapeTerminal(describeHolder(holder))}\n`,
      );
      return EXIT.ok;
    }
  }
  return EXIT.error;
}

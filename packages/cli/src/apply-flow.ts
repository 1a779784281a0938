import {
  ACTION_SYMBOL,
  type ApplyEvent,
  type ApplyResult,
  acquireLock,
  apply,
  describeHolder,
  hasChanges,
  type LoadedProject,
  type Operation,
  type OperationResult,
  type Plan,
  planToJson,
  renderPlanText,
  type State,
} from '@monitor/engine';
import { EXIT, type ExitCode } from './exit-codes.js';
import { type Io, type Paint, paint } from './io.js';
import { type Connection, connect, loadProject, type ProjectArgs } from './project.js';

/**
 * Load the project, connect, hold the state lock while `body` runs; the lock is released and the
 * connection closed whatever happens. Prints `monitor <command>: project → account` first.
 */
export async function withLockedProject(
  command: 'deploy' | 'destroy',
  args: ProjectArgs & { lockTimeout?: number | undefined },
  io: Io,
  body: (project: LoadedProject, connection: Connection) => Promise<ExitCode>,
  headerNote = '',
): Promise<ExitCode> {
  const project = await loadProject(args, io);
  if (typeof project === 'number') return project;
  const connection = await connect(args, io, project);
  try {
    const release = await acquireLock(connection.lockPath, {
      timeoutMs: (args.lockTimeout ?? 0) * 1000,
      command: `monitor ${command}`,
      onWait: (holder) =>
        io.stderr(
          `Waiting up to ${args.lockTimeout} s for the state lock held by ${describeHolder(holder)}\n`,
        ),
    });
    try {
      if (args.json !== true) {
        const where = `account ${connection.accountId}${connection.local ? ' (local emulator)' : ''}`;
        io.stdout(
          paint(io.color).dim(
            `monitor ${command}: ${project.config.projectName} → ${where}${headerNote}\n\n`,
          ),
        );
      }
      return await body(project, connection);
    } finally {
      release();
    }
  } finally {
    await connection.close();
  }
}

export interface ApplyFlowArgs {
  yes?: boolean | undefined;
  allowDeletes?: boolean | undefined;
  parallelism?: number | undefined;
  json?: boolean | undefined;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Live progress on a terminal, one line per operation otherwise; both on stderr. */
function progressReporter(io: Io, p: Paint, total: number) {
  const started = Date.now();
  let lastLine = '';
  return {
    onEvent(event: ApplyEvent) {
      if (event.type !== 'finish') return;
      const { result } = event;
      const id = result.physicalId === undefined ? '' : ` (id ${String(result.physicalId)})`;
      const what = `${ACTION_SYMBOL[result.action]} ${result.kind} ${result.logicalId}${id}`;
      if (io.interactive) {
        const rate = event.done / Math.max(0.001, (Date.now() - started) / 1000);
        lastLine = `[${event.done}/${total}] ${rate.toFixed(1)} ops/s  ${what}`;
        io.stderr(`\r\u001b[K${lastLine}`);
        if (result.status === 'failed')
          io.stderr(`\n${p.red('✗')} ${what}: ${result.error?.message ?? ''}\n`);
        return;
      }
      const mark =
        result.status === 'done' ? p.green('✓') : result.status === 'failed' ? p.red('✗') : p.yellow('·');
      const detail =
        result.status === 'done'
          ? `${result.durationMs} ms${result.reconciled ? ', found after an ambiguous create' : ''}`
          : `${result.status}: ${result.error?.message ?? ''}`;
      io.stderr(`${mark} ${what}  ${p.dim(detail)}\n`);
    },
    end() {
      if (io.interactive && lastLine !== '') io.stderr('\n');
    },
  };
}

function resultLine(r: OperationResult, p: Paint): string[] {
  const id = r.physicalId === undefined ? '' : ` (id ${String(r.physicalId)})`;
  const status =
    r.status === 'done'
      ? p.green('done       ')
      : r.status === 'failed'
        ? p.red('failed     ')
        : r.status === 'skipped'
          ? p.yellow('skipped    ')
          : p.dim('not started');
  const lines = [`  ${status}  ${ACTION_SYMBOL[r.action]} ${r.kind} ${r.logicalId}${id}`];
  if (r.error !== undefined) {
    lines.push(`               ${r.error.message}`);
    if (r.error.hint !== undefined) lines.push(p.dim(`               hint: ${r.error.hint}`));
  }
  return lines;
}

function reportResult(result: ApplyResult, io: Io, p: Paint): void {
  const count = (action: Operation['action']) =>
    result.results.filter((r) => r.status === 'done' && r.action === action).length;
  const totals = `${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('adopt')} adopted, ${count('move')} moved`;
  if (result.ok) {
    io.stdout(
      `${p.green('✓')} Applied in ${seconds(result.elapsedMs)}: ${totals}; ${result.requests} API call${result.requests === 1 ? '' : 's'}.\n`,
    );
    return;
  }
  const shown =
    result.results.length <= 50 ? result.results : result.results.filter((r) => r.status !== 'done');
  io.stdout(
    `\n${p.bold('Results:')}${shown.length < result.results.length ? p.dim(' (done operations not listed)') : ''}\n`,
  );
  for (const r of shown) io.stdout(`${resultLine(r, p).join('\n')}\n`);
  const by = (s: OperationResult['status']) => result.results.filter((r) => r.status === s).length;
  io.stdout(
    `${p.red('✗')} Stopped after ${seconds(result.elapsedMs)}: ${by('failed')} failed, ${by('done')} done (${totals}), ${by('skipped')} skipped, ${by('not-started')} not started; ${result.requests} API calls.\n`,
  );
  io.stdout(p.dim('State holds everything that was done: run the same command again to continue.\n'));
}

/**
 * Print the plan, get consent (a prompt on a terminal; `--yes` and, for deletes, `--allow-deletes`
 * otherwise), apply it with progress and report. Shared by deploy and destroy.
 */
export async function confirmAndApply(
  command: string,
  result: Plan,
  state: State,
  connection: Connection,
  args: ApplyFlowArgs,
  io: Io,
): Promise<ExitCode> {
  const p = paint(io.color);
  const json = args.json === true;
  if (!json) io.stdout(renderPlanText(result, p));
  const printJson = (extra: Record<string, unknown>) =>
    io.stdout(`${JSON.stringify({ formatVersion: 1, plan: planToJson(result), ...extra }, null, 2)}\n`);

  if (!hasChanges(result)) {
    if (json) printJson({ applied: false, result: null });
    return EXIT.ok;
  }
  const deletes = result.summary.delete;
  if (!io.interactive || args.yes === true) {
    const missing: string[] = [];
    if (args.yes !== true) missing.push('--yes to apply it');
    if (deletes > 0 && args.allowDeletes !== true)
      missing.push(`--allow-deletes, because it deletes ${deletes} resource${deletes === 1 ? '' : 's'}`);
    if (missing.length > 0) {
      const message = `refused: this is a non-interactive run and it needs ${missing.join(' and ')}. Nothing was changed.`;
      if (json) printJson({ applied: false, refused: message, result: null });
      else
        io.stderr(
          `${p.red('error')}: ${message}\n${p.dim('hint')}: review the plan above, then run monitor ${command} with those flags\n`,
        );
      return EXIT.refused;
    }
  } else {
    const question = `\nApply these changes to account ${connection.accountId}${deletes > 0 ? p.red(` (${deletes} DELETE${deletes === 1 ? '' : 'S'})`) : ''}? Only "yes" is accepted: `;
    const answer = (await io.prompt?.(question)) ?? '';
    if (answer.trim() !== 'yes') {
      io.stderr('Cancelled: nothing was changed.\n');
      return EXIT.refused;
    }
  }

  const trap = io.trapInterrupts?.();
  const progress = progressReporter(io, p, result.operations.length);
  let applied: ApplyResult;
  try {
    applied = await apply(result, {
      client: connection.client,
      store: connection.store,
      state,
      ...(args.parallelism === undefined ? {} : { parallelism: args.parallelism }),
      ...(trap === undefined ? {} : { signal: trap.signal }),
      onEvent: (e) => progress.onEvent(e),
    });
  } finally {
    progress.end();
    trap?.release();
  }
  if (json) {
    printJson({
      applied: true,
      result: {
        ok: applied.ok,
        elapsedMs: applied.elapsedMs,
        requests: applied.requests,
        results: applied.results,
      },
    });
  } else reportResult(applied, io, p);
  return applied.ok ? EXIT.ok : EXIT.error;
}

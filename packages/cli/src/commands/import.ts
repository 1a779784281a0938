import { relative, resolve } from 'node:path';
import { RESOURCE_KINDS } from '@monitor/api';
import type { Consent, ImportOutcome, ImportPlan, LoadedProject, RecoveredResource } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { CommandError } from '../account.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { CLEAR_LINE, paint } from '../io.js';
import { staleLockNotice } from '../lock-notice.js';
import {
  commaList,
  commandLine,
  integerAtLeast,
  type ProjectArgs,
  UsageError,
  withProjectOptions,
} from '../options.js';
import type { RunContext } from '../output.js';

export interface ImportArgs extends ProjectArgs {
  kind?: string[] | undefined;
  id?: string[] | undefined;
  name?: string[] | undefined;
  tag?: string[] | undefined;
  groupBy?: 'kind' | 'tag' | undefined;
  out?: string | undefined;
  dryRun?: boolean | undefined;
  force?: boolean | undefined;
  yes?: boolean | undefined;
  recover?: boolean | undefined;
  lockTimeout?: number | undefined;
}

export const builder = (y: Argv) =>
  withProjectOptions(y)
    .option('kind', {
      type: 'string',
      array: true,
      describe: `Only these kinds (${RESOURCE_KINDS.join(', ')}); repeat or comma-separate`,
    })
    .option('id', { type: 'string', array: true, describe: 'Only the resources with these ids' })
    .option('name', {
      type: 'string',
      array: true,
      describe: "Only the resources whose name matches this glob ('Payments*'; * and ? as in a shell)",
    })
    .option('tag', { type: 'string', array: true, describe: 'Only the resources with this tag' })
    .option('group-by', {
      choices: ['kind', 'tag'] as const,
      default: 'kind' as const,
      describe: 'One file per kind, or groups, dashboards and windows in one file per (first) tag',
    })
    .option('out', {
      type: 'string',
      describe: 'Directory of the generated files (default: where the first include pattern looks)',
    })
    .option('recover', {
      type: 'boolean',
      describe:
        "Only find the code's constructs in the account again after lost state, and record them; generate no code",
    })
    .option('dry-run', {
      type: 'boolean',
      describe: 'Print the files and what would be recorded; write nothing',
    })
    .option('force', { type: 'boolean', describe: 'Overwrite generated files that already exist' })
    .option('yes', {
      alias: 'y',
      type: 'boolean',
      describe:
        'Accept constructs of the code matched by content alone, e.g. alert channels (needed when not on a terminal)',
    })
    .option('lock-timeout', {
      type: 'string',
      default: '0',
      coerce: integerAtLeast('lock-timeout', 0),
      describe: 'Seconds to wait for a deploy to release the state lock',
    })
    .example('$0 import --local --dry-run', 'see the code for everything no project owns')
    .example('$0 import', 'write it, and record the resources as owned: the next diff shows No changes')
    .example("$0 import --kind CheckGroup --name 'Payments*'", 'only some groups')
    .example('$0 import --group-by tag', 'one file per tag')
    .example('$0 import --recover --yes', 'after lost state: find the code’s constructs in the account again')
    .epilogue(
      'Sensitive values are never written: the code reads them with requiredEnv(NAME), and the ' +
        'variables to set are listed. Files are written before state, so a failure leaves the ' +
        'resources unowned, never owned without code. See docs/import.md.',
    );

/** `monitor import`: code and state for resources that exist in the account. */
export async function run(args: ImportArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const [engine, { headerLine, loadAndConnect }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
  ]);
  // Names are not split at commas: a name may hold one. A bad kind is refused before anything loads.
  const filters = {
    kinds: kindsFrom(engine, args.kind),
    ids: commaList(args.id),
    names: args.name ?? [],
    tags: commaList(args.tag),
  };
  const connected = await loadAndConnect(args, ctx, { allowUnmatchedIncludes: true });
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  const p = paint(io.color);
  // A large account takes seconds to read and to write code for: say what is going on.
  const status = (text: string) => {
    if (io.interactive && !out.json) io.stderr(`${CLEAR_LINE}${p.dim(text)}`);
  };
  try {
    if (!out.json) io.stderr(headerLine('import', project, connection));
    const outcome = await engine.importResources(connection.target, {
      command: 'monitor import',
      filters,
      groupBy: args.groupBy ?? 'kind',
      recoverOnly: args.recover === true,
      ...(args.out === undefined ? {} : { outDir: resolve(io.cwd, args.out) }),
      dryRun: args.dryRun === true,
      overwrite: args.force === true,
      lockTimeoutMs: (args.lockTimeout ?? 0) * 1000,
      env: io.env,
      confirm: (matched) => confirmByContent(matched, args, ctx),
      onEvent: (event) => {
        if (event.type === 'lock-wait') io.stderr(`Waiting up to ${args.lockTimeout} s for the state lock\n`);
        if (event.type === 'lock-stale') io.stderr(staleLockNotice(event.removed));
        else if (event.type === 'reading') status('Reading the account…');
        else status(escapeTerminal(`Writing code for what ${project.config.projectName} does not own…`));
      },
    });
    status('');
    return report(outcome, args, ctx, project, connection.target.backend.location);
  } finally {
    status('');
    await connection.close();
  }
}

/** The kinds `--kind` names; a kind that does not exist is a usage error. */
function kindsFrom(engine: typeof import('@monitor/engine'), values: string[] | undefined) {
  try {
    return engine.kindsNamed(commaList(values));
  } catch (e) {
    if (e instanceof engine.ImportFilterError) throw new UsageError(e.message, e.hint);
    throw e;
  }
}

/** What an import's outcome prints, and its exit code; refusals are errors with the flags that help. */
function report(
  outcome: ImportOutcome,
  args: ImportArgs,
  { io, out }: RunContext,
  project: LoadedProject,
  stateLocation: string,
): ExitCode {
  const { plan } = outcome;
  const p = paint(io.color);
  const shown = (path: string) => relative(io.cwd, path) || '.';
  out.result = resultJson(
    plan,
    outcome.files.map((f) => shown(f.path)),
    args.dryRun === true,
  );
  switch (outcome.status) {
    case 'nothing': {
      const why =
        plan.ownedElsewhere.length > 0 ? ` (${plan.ownedElsewhere.length} owned by other projects)` : '';
      if (!out.json)
        io.stderr(
          args.recover === true
            ? 'Nothing to recover: no construct of the code without state has its resource in the account.\n'
            : `Nothing to import: every resource selected is owned already${why}.\n`,
        );
      return EXIT.ok;
    }
    case 'files-exist': {
      const n = outcome.existing.length;
      throw new CommandError(
        'files_exist',
        `${n === 1 ? 'a file' : `${n} files`} to generate already ${n === 1 ? 'exists' : 'exist'}: ${outcome.existing.map(shown).join(', ')}; nothing was written or recorded`,
        `choose another directory with --out, or overwrite with ${commandLine(args, 'import', '--force')}`,
      );
    }
    case 'refused':
      throw new CommandError('refused', outcome.reason, outcome.hint);
    case 'dry-run':
      if (!out.json) {
        for (const f of outcome.files)
          io.stdout(
            `${p.bold(escapeTerminal(`// ${shown(f.path)}`))}\n${escapeTerminal(f.text, { multiline: true })}\n`,
          );
        io.stderr(describePlan(plan, p));
        io.stderr(`${p.dim('Dry run: nothing was written or recorded.')}\n`);
      }
      return EXIT.ok;
    case 'imported':
      break;
  }
  if (!out.json) {
    for (const f of outcome.files) io.stderr(`${p.green('+')} ${escapeTerminal(shown(f.path))}\n`);
    io.stderr(describePlan(plan, p));
    const n = Object.keys(plan.entries).length;
    io.stderr(
      `\n${p.green('✓')} ${escapeTerminal(`Recorded ${n} resource${n === 1 ? '' : 's'} as owned by ${project.config.projectName} in ${stateLocation}.`)}\n`,
    );
  }
  // diff fails while a variable the code reads with requiredEnv is unset: those come first.
  const unset = [...new Set([...plan.secrets.filter((s) => !s.set).map((s) => s.env), ...outcome.unset])];
  const next = [...unset.map((name) => `export ${name}=…`), commandLine(args, 'diff')];
  out.result = { ...(out.result as Record<string, unknown>), next };
  if (!out.json) {
    io.stderr(
      unset.length === 0
        ? `Next: ${commandLine(args, 'diff')}\n`
        : `Next: set ${unset.length === 1 ? 'the variable' : `the ${unset.length} variables`} the code reads with requiredEnv, then diff:\n${next.map((line) => `  ${line}`).join('\n')}\n`,
    );
  }
  return EXIT.ok;
}

/**
 * Constructs of the code found by content alone are recorded once someone says so: `--yes`, or
 * "yes" at the prompt of a terminal; otherwise the import is refused.
 */
async function confirmByContent(
  matched: RecoveredResource[],
  args: ImportArgs,
  { io }: RunContext,
): Promise<Consent> {
  if (args.yes === true) return { approved: true };
  const list = matched
    .map(
      (r) =>
        `  ${escapeTerminal(`${r.kind} ${r.logicalId} ← id ${String(r.physicalId)}${r.name === undefined ? '' : ` “${r.name}”`}`)}`,
    )
    .join('\n');
  const question = `These constructs of the code were found in the account by their content alone:\n${list}\nTwo alike resources cannot be told apart. Record them as these constructs? Only "yes" is accepted: `;
  const answer = io.interactive ? await io.prompt?.(question) : undefined;
  if (answer?.trim() === 'yes') return { approved: true };
  const n = matched.length;
  return {
    approved: false,
    reason: `${n} construct${n === 1 ? '' : 's'} of the code matched by content alone need${n === 1 ? 's' : ''} your confirmation; nothing was written or recorded:\n${list}`,
    hint: `check them in the account, then run ${commandLine(args, 'import', ...(args.recover === true ? ['--recover'] : []), '--yes')}`,
  };
}

function describePlan(plan: ImportPlan, p: ReturnType<typeof paint>): string {
  const lines: string[] = [''];
  const n = plan.resources.length;
  if (n > 0) lines.push(`Imported ${n} resource${n === 1 ? '' : 's'}:`);
  for (const r of plan.resources)
    lines.push(
      `  ${r.kind} ${p.bold(escapeTerminal(r.logicalId))} ${escapeTerminal(`← id ${String(r.physicalId)}${r.name === undefined ? '' : ` “${r.name}”`}  (${r.variable} in ${r.module})`)}`,
    );
  if (plan.recovered.length > 0) {
    lines.push('', 'Found again for constructs of the code (their state was missing):');
    for (const r of plan.recovered)
      lines.push(
        `  ${r.kind} ${p.bold(escapeTerminal(r.logicalId))} ← id ${escapeTerminal(String(r.physicalId))}${r.byContent ? ' (by content)' : ''}${r.changes > 0 ? p.yellow(`: ${r.changes} change${r.changes === 1 ? '' : 's'} for the next deploy`) : ''}`,
      );
  }
  if (plan.ownedElsewhere.length > 0) {
    lines.push(
      '',
      `Left out, owned by other projects: ${escapeTerminal(plan.ownedElsewhere.map((o) => `${o.kind} ${String(o.physicalId)} (${o.project})`).join(', '))}`,
    );
  }
  if (plan.secrets.length > 0) {
    lines.push(
      '',
      'Set these environment variables (the code reads them with requiredEnv; nothing secret was written):',
    );
    for (const s of plan.secrets) {
      const note = s.set
        ? p.green('(set)')
        : p.dim(s.masked ? 'the service never shows it: the value you gave it' : 'copy it from the account');
      lines.push(
        `  ${p.bold(escapeTerminal(s.env))}  ${escapeTerminal(`${s.kind} ${s.logicalId} ${s.path}`)}  ${note}`,
      );
    }
  }
  const unset = plan.remaining.length;
  if (unset > 0) {
    lines.push(
      '',
      p.yellow(
        `${unset} resource${unset === 1 ? '' : 's'} will still show changes in the next diff: ${escapeTerminal(plan.remaining.map((op) => `${op.kind} ${op.logicalId}`).join(', '))}.`,
      ),
      p.dim('  A secret the service masks, imported without its variable set, is sent by the next deploy.'),
    );
  }
  return `${lines.join('\n')}\n`;
}

function resultJson(plan: ImportPlan, files: string[], dryRun: boolean): Record<string, unknown> {
  return {
    dryRun,
    files,
    imported: plan.resources.map((r) => ({
      kind: r.kind,
      logicalId: r.logicalId,
      physicalId: r.physicalId,
      name: r.name ?? null,
      variable: r.variable,
      module: r.module,
    })),
    recovered: plan.recovered,
    secrets: plan.secrets,
    ownedElsewhere: plan.ownedElsewhere,
    remaining: plan.remaining.map((op) => ({ kind: op.kind, logicalId: op.logicalId, action: op.action })),
  };
}

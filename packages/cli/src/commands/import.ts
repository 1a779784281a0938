import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { RESOURCE_KINDS, type ResourceKind } from '@monitor/api';
import type { ImportPlan, LoadedProject } from '@monitor/engine';
import { escapeTerminal } from '@monitor/engine/escape';
import type { Argv } from 'yargs';
import { CommandError } from '../account.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { CLEAR_LINE, paint } from '../io.js';
import {
  commaList,
  commandLine,
  environmentOf,
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

/** `*.monitor.ts` or `.ts`: what the include pattern's files end with, and where it looks. */
function whereToWrite(project: LoadedProject, out: string | undefined, cwd: string) {
  const pattern = project.config.include[0] ?? '**/*.monitor.ts';
  const extension = /\*(\.[\w.]+)$/.exec(pattern)?.[1] ?? '.monitor.ts';
  // The directories before the first segment with a glob character: `monitors/**/*.monitor.ts` → monitors.
  const segments = pattern.split('/');
  const firstGlob = segments.findIndex((s) => /[*?[{]/.test(s));
  const staticPart = segments.slice(0, firstGlob === -1 ? segments.length - 1 : firstGlob);
  const dir = out === undefined ? resolve(project.projectDir, ...staticPart) : resolve(cwd, out);
  return { dir, extension: extension.endsWith('.ts') ? extension : '.monitor.ts' };
}

function kindsFrom(values: readonly string[] | undefined): ResourceKind[] {
  return commaList(values).map((v) => {
    const kind = RESOURCE_KINDS.find((k) => k.toLowerCase() === v.replace(/-/g, '').toLowerCase());
    if (kind === undefined)
      throw new UsageError(`unknown kind "${v}"`, `kinds are ${RESOURCE_KINDS.join(', ')}`);
    return kind;
  });
}

/** `monitor import`: code and state for resources that exist in the account. */
export async function run(args: ImportArgs, ctx: RunContext): Promise<ExitCode> {
  const { io, out } = ctx;
  const kinds = kindsFrom(args.kind);
  const [engine, { headerLine, loadAndConnect }, { generateModules }] = await Promise.all([
    import('@monitor/engine'),
    import('../project.js'),
    import('../import/codegen.js'),
  ]);
  const connected = await loadAndConnect(args, ctx, { allowUnmatchedIncludes: true });
  if (typeof connected === 'number') return connected;
  const { project, connection } = connected;
  const p = paint(io.color);
  const { target } = connection;
  let release = async () => {};
  try {
    if (args.dryRun !== true) {
      release = await target.backend.lock({
        command: 'monitor import',
        timeoutMs: (args.lockTimeout ?? 0) * 1000,
        onWait: () => io.stderr(`Waiting up to ${args.lockTimeout} s for the state lock\n`),
      });
    }
    if (!out.json) io.stderr(headerLine('import', project, connection));
    // A large account takes seconds to read and to write code for: say what is going on.
    const status = (text: string) => {
      if (io.interactive && !out.json) io.stderr(`${CLEAR_LINE}${p.dim(text)}`);
    };
    status('Reading the account…');
    const { state, live, otherOwners } = await engine.readAccount(target);
    status(escapeTerminal(`Writing code for what ${project.config.projectName} does not own…`));
    const plan = engine.planImport({
      live,
      state,
      code: project.resources,
      defaults: project.config.defaults,
      // Names are not split at commas: a name may hold one.
      filters: { kinds, ids: commaList(args.id), names: args.name, tags: commaList(args.tag) },
      groupBy: args.groupBy ?? 'kind',
      recoverOnly: args.recover === true,
      ...(otherOwners === undefined ? {} : { otherOwners }),
      env: io.env,
      secretKey: target.secretKey,
      now: new Date(),
    });
    status('');
    const errors = plan.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      throw new CommandError(
        'import_failed',
        `the generated code would not load: ${errors.map((d) => `${d.logicalId ?? ''} ${d.path}: ${d.message}`).join('; ')}`,
        'this is a monitor bug: please report it with the output of --debug; nothing was written',
      );
    }
    const { dir, extension } = whereToWrite(project, args.out, io.cwd);
    const banner = `// Imported by monitor import from account ${connection.accountId} on ${new Date().toISOString().slice(0, 10)}.\n// This is your code now: rename, regroup and refactor freely (keep the logical ids, or add aliases).`;
    const files = generateModules(plan.resources, { extension, banner }).map((f) => ({
      ...f,
      absolute: join(dir, f.path),
    }));
    const shown = (path: string) => relative(io.cwd, path) || '.';
    out.result = resultJson(
      plan,
      files.map((f) => shown(f.absolute)),
      args.dryRun === true,
    );

    if (plan.resources.length === 0 && plan.recovered.length === 0) {
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

    const existing = files.filter((f) => existsSync(f.absolute));
    if (args.dryRun !== true && existing.length > 0 && args.force !== true) {
      throw new CommandError(
        'files_exist',
        `${existing.length === 1 ? 'a file' : `${existing.length} files`} to generate already ${existing.length === 1 ? 'exists' : 'exist'}: ${existing.map((f) => shown(f.absolute)).join(', ')}; nothing was written or recorded`,
        `choose another directory with --out, or overwrite with ${commandLine(args, 'import', '--force')}`,
      );
    }

    if (args.dryRun === true) {
      if (!out.json) {
        for (const f of files)
          io.stdout(
            `${p.bold(escapeTerminal(`// ${shown(f.absolute)}`))}\n${escapeTerminal(f.text, { multiline: true })}\n`,
          );
        io.stderr(describePlan(plan, p));
        io.stderr(`${p.dim('Dry run: nothing was written or recorded.')}\n`);
      }
      return EXIT.ok;
    }

    const byContent = plan.recovered.filter((r) => r.byContent);
    if (byContent.length > 0 && args.yes !== true) {
      const list = byContent
        .map(
          (r) =>
            `  ${escapeTerminal(`${r.kind} ${r.logicalId} ← id ${String(r.physicalId)}${r.name === undefined ? '' : ` “${r.name}”`}`)}`,
        )
        .join('\n');
      const question = `These constructs of the code were found in the account by their content alone:\n${list}\nTwo alike resources cannot be told apart. Record them as these constructs? Only "yes" is accepted: `;
      const answer = io.interactive ? await io.prompt?.(question) : undefined;
      if (answer?.trim() !== 'yes') {
        throw new CommandError(
          'refused',
          `${byContent.length} construct${byContent.length === 1 ? '' : 's'} of the code matched by content alone need${byContent.length === 1 ? 's' : ''} your confirmation; nothing was written or recorded:\n${list}`,
          `check them in the account, then run ${commandLine(args, 'import', ...(args.recover === true ? ['--recover'] : []), '--yes')}`,
        );
      }
    }

    for (const f of files) {
      mkdirSync(dirname(f.absolute), { recursive: true });
      writeFileSync(f.absolute, f.text);
    }
    const unsetInCode = await checkGenerated(
      engine,
      args,
      ctx,
      plan,
      files.map((f) => f.absolute),
    );
    await target.backend.record(state, plan.entries);
    await target.backend.commit(state);

    if (!out.json) {
      for (const f of files) io.stderr(`${p.green('+')} ${escapeTerminal(shown(f.absolute))}\n`);
      io.stderr(describePlan(plan, p));
      const n = Object.keys(plan.entries).length;
      io.stderr(
        `\n${p.green('✓')} ${escapeTerminal(`Recorded ${n} resource${n === 1 ? '' : 's'} as owned by ${project.config.projectName} in ${target.backend.location}.`)}\n`,
      );
    }
    // diff fails while a variable the code reads with requiredEnv is unset: those come first.
    const unset = [...new Set([...plan.secrets.filter((s) => !s.set).map((s) => s.env), ...unsetInCode])];
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
  } finally {
    await release();
    await connection.close();
  }
}

/**
 * Load the project with the files just written, as every later command will, and check that each
 * imported construct is there and synthesizes what the import planned. State is recorded only then.
 */
async function checkGenerated(
  engine: typeof import('@monitor/engine'),
  args: ImportArgs,
  { io }: RunContext,
  plan: ImportPlan,
  written: string[],
): Promise<string[]> {
  const report = await engine.validateProject({
    cwd: io.cwd,
    ...(args.config === undefined ? {} : { config: args.config }),
    environment: environmentOf(args, io.env),
    // Files written where no pattern looks are named below, with what to do.
    allowUnmatchedIncludes: true,
  });
  const loaded = report.project;
  const where = written.map((f) => relative(io.cwd, f)).join(', ');
  if (loaded === undefined) {
    const first = report.diagnostics[0];
    throw new CommandError(
      'import_failed',
      `the project does not load with the generated files (${first?.message ?? 'unknown error'}); they were written (${where}) but nothing was recorded in state`,
      'fix or remove the generated files, then run monitor import again',
    );
  }
  const missing = Object.values(plan.entries).filter(
    (e) => !loaded.resources.some((r) => r.kind === e.kind && r.logicalId === e.logicalId),
  );
  if (missing.length > 0) {
    throw new CommandError(
      'import_failed',
      `the project's include patterns do not load the generated files (${where}): ${missing.length} imported construct${missing.length === 1 ? ' is' : 's are'} missing; nothing was recorded in state`,
      'move the files where an include pattern in monitor.config.ts finds them (or pass --out to a directory it includes), then run monitor import again',
    );
  }
  // The variables every later command needs that are not set here: the generated code's and the rest of the project's.
  return report.diagnostics.flatMap(
    (d) => /^environment variable (\S+) is not set \(requiredEnv\)$/.exec(d.message)?.[1] ?? [],
  );
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
